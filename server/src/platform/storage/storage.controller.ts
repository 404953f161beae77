import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Controller, Get, HttpCode, HttpStatus, Post, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import multer, { type File } from 'multer';
import { Public } from '../auth/public.decorator.js';
import { Problem } from '../http/problem.js';
import { StorageService, type UploadPolicy } from './storage.service.js';

type UploadRequest = Request & { file?: File; uploadPolicy?: UploadPolicy; uploadKey?: string };

/**
 * The embedded storage service behind the form-post contract (spec §7 "Student files": "a form post to
 * the returned storage-service URL with key, policy, signature, access key and file"). Public: the
 * signed policy is the authorisation. Fields must precede the file (as with S3).
 */
@ApiTags('storage')
@Controller('api/v1/storage')
export class StorageController {
  constructor(private readonly storage: StorageService) {}

  @Post('upload')
  @Public()
  @HttpCode(HttpStatus.CREATED)
  @ApiConsumes('multipart/form-data')
  async upload(@Req() req: UploadRequest, @Res({ passthrough: true }) res: Response) {
    const dest = await this.storage.tempDir();
    const middleware = multer({
      storage: multer.diskStorage({ destination: dest, filename: (_r, _f, cb) => cb(null, randomUUID()) }),
      limits: { fileSize: this.storage.maxUploadBytes, files: 1, fields: 10, fieldSize: 16 * 1024 },
      fileFilter: (r, file, cb) => {
        const request = r as UploadRequest;
        this.storage
          .verifyUploadFields(request.body as Record<string, unknown>)
          .then(({ key, policy }) => {
            if (!policy.conditions.contentTypes.includes(file.mimetype))
              throw new Problem(
                HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                `file: content type ${file.mimetype} is not allowed (${policy.conditions.contentTypes.join(', ')})`,
              );
            request.uploadPolicy = policy;
            request.uploadKey = key;
            cb(null, true);
          })
          .catch((e: Error) => cb(e));
      },
    }).single('file');
    try {
      await new Promise<void>((done, fail) =>
        middleware(req, res, (err?: unknown) =>
          err ? fail(err instanceof Error ? err : new Error('upload failed')) : done(),
        ),
      );
    } catch (e) {
      if (req.file?.path) await rm(req.file.path, { force: true });
      if (e instanceof multer.MulterError) {
        if (e.code === 'LIMIT_FILE_SIZE')
          throw new Problem(
            HttpStatus.PAYLOAD_TOO_LARGE,
            `file: larger than the ${this.storage.maxUploadBytes} bytes allowed`,
          );
        throw new Problem(HttpStatus.BAD_REQUEST, `${e.field ?? 'form'}: ${e.message}`);
      }
      if (e instanceof Problem) throw e;
      throw new Problem(HttpStatus.BAD_REQUEST, `form: ${(e as Error).message}`);
    }
    const file = req.file;
    if (!file || !req.uploadKey || !req.uploadPolicy)
      throw new Problem(HttpStatus.BAD_REQUEST, 'file: is required (a multipart field named "file")');
    if (file.size > req.uploadPolicy.conditions.maxBytes) {
      await rm(file.path, { force: true });
      throw new Problem(
        HttpStatus.PAYLOAD_TOO_LARGE,
        `file: larger than the ${req.uploadPolicy.conditions.maxBytes} bytes allowed`,
      );
    }
    if (file.size === 0) {
      await rm(file.path, { force: true });
      throw new Problem(HttpStatus.BAD_REQUEST, 'file: is empty');
    }
    const stored = await this.storage.put(req.uploadKey, file.path, file.mimetype, file.size);
    return { key: stored.path, size: stored.size, content_type: stored.contentType };
  }

  @Get('download')
  @Public()
  @ApiOkResponse({ description: 'The file (binary)' })
  async download(@Query() q: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const { key, name } = await this.storage.verifyDownload(q);
    const object = await this.storage.head(key);
    if (!object) throw new Problem(HttpStatus.NOT_FOUND, 'File not found');
    res.setHeader('Content-Type', object.contentType);
    res.setHeader('Content-Length', String(object.size));
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const safe = name.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'file';
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${safe}"; filename*=UTF-8''${encodeURIComponent(name || 'file')}`,
    );
    await new Promise<void>((done, fail) =>
      res.sendFile(this.storage.fileOf(key), { dotfiles: 'allow' }, (err) => (err ? fail(err) : done())),
    );
  }
}
