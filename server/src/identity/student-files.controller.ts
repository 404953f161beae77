import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import type { UserRow } from '@portal/projections';
import { AnyAuthenticatedUser } from '../platform/auth/public.decorator.js';
import { type Actor, type AuthenticatedRequest, actorOf } from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { StorageService } from '../platform/storage/storage.service.js';
import { isPartner, mayUseStudentFiles, type StudentFileAction } from './policy/policy.js';
import { ehcpStudentScope } from '../core/access/student-scope.js';
import { STUDENT_FILE_TYPES, type StudentFileType } from './user.events.js';
import { PositionResponse } from './users.dto.js';
import { UserAccess, forbidden } from './user-access.js';
import type { CommandResult } from './commands/user-command.handler.js';
import { UuidPipe } from '../platform/http/validation.js';

// No slashes, no control characters (checked without a control-character regex literal).
const FILE_NAME = new RegExp(
  '^[^/\\\\' + String.fromCharCode(0) + '-' + String.fromCharCode(31) + String.fromCharCode(127) + ']+$',
);

export class UploadUrlQuery {
  @ApiProperty({ description: 'Name of the file the user chose' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(FILE_NAME, { message: 'file_name: must not contain slashes or control characters' })
  file_name!: string;
}

export class DownloadUrlQuery {
  @ApiProperty({ description: 'file_path of one of the student files' })
  @IsString()
  @MaxLength(512)
  file_path!: string;
}

export class RegisterFileBody {
  @ApiProperty({ description: 'The key the upload form used (students/{id}/{uuid})' })
  @IsString()
  @MaxLength(512)
  file_path!: string;

  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(FILE_NAME, { message: 'file_name: must not contain slashes or control characters' })
  file_name!: string;

  @ApiPropertyOptional({ enum: STUDENT_FILE_TYPES, default: 'OTHER' })
  @IsOptional()
  @IsIn(STUDENT_FILE_TYPES)
  file_type?: StudentFileType;
}

export class DeleteFilesBody {
  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  files_uuids!: string[];
}

export class UploadFormFields {
  @ApiProperty() key!: string;
  @ApiProperty() AWSAccessKeyId!: string;
  @ApiProperty({
    description: 'base64 JSON policy: expiration, the one key, size and content types (one upload)',
  })
  policy!: string;
  @ApiProperty({ description: 'hex HMAC-SHA256 of the policy' }) signature!: string;
}

export class UploadUrlResponse {
  @ApiProperty({ description: 'POST a multipart form here: the fields below, then "file"' }) url!: string;
  @ApiProperty({ type: UploadFormFields }) fields!: UploadFormFields;
  @ApiProperty() file_path!: string;
  @ApiProperty() file_id!: string;
  @ApiProperty() expires_at!: string;
}

export class DownloadUrlResponse {
  @ApiProperty() url!: string;
  @ApiProperty() expires_at!: string;
}

export class FileRegisteredResponse extends PositionResponse {
  @ApiProperty() id!: string;
}

const studentNotFound = () => new Problem(HttpStatus.NOT_FOUND, 'Student not found');
const needsEhcp = () => forbidden('Adding and deleting student files needs EHCP access and upload');
const notAFile = () => new Problem(HttpStatus.NOT_FOUND, 'file_path: not a file of this student');

/**
 * Student files (spec §7): uploads go to the storage service through a signed form post; the files
 * are events on the student (`StudentFileAdded`, `StudentFilesDeleted`) and the user view's
 * `student_profile.files` comes from the users projection. Who reaches the student: administrators
 * and internal holders of CAN_ACCESS_AND_UPLOAD_EHCP (`ehcpStudentScope`), and partners who can see the
 * student; what they may do with the files is the policy's `mayUseStudentFiles` (decision 0037: adding,
 * deleting and EHCP files need EHCP access and upload; deleting also needs a partner's edit permission).
 */
@ApiTags('student files')
@Controller('api/v1/users/students')
export class StudentFilesController {
  constructor(
    private readonly access: UserAccess,
    private readonly storage: StorageService,
  ) {}

  @Get(':id/files-upload-url')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: UploadUrlResponse })
  async uploadUrl(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Query() _q: UploadUrlQuery,
  ): Promise<UploadUrlResponse> {
    const { student } = await this.student(req, id, 'upload');
    const form = await this.storage.createUploadForm(this.storage.baseUrlFor(req), `students/${student.id}/`);
    return {
      url: form.url,
      fields: form.fields,
      file_path: form.key,
      file_id: form.key.slice(form.key.lastIndexOf('/') + 1),
      expires_at: form.expires_at,
    };
  }

  @Get(':id/files-download-url')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: DownloadUrlResponse })
  async downloadUrl(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Query() q: DownloadUrlQuery,
  ): Promise<DownloadUrlResponse> {
    const { actor, student } = await this.student(req, id, 'view');
    // Only the files this reader may see (EHCP files need EHCP access): others are not found.
    const file = (student.files ?? []).find((f) => f.file_path === q.file_path);
    if (!file || !mayUseStudentFiles(actor.permissions, 'view', file.file_type)) throw notAFile();
    return this.storage.downloadUrl(this.storage.baseUrlFor(req), file.file_path, file.file_name);
  }

  @Put('files/:id')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: FileRegisteredResponse })
  async register(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: RegisterFileBody,
  ): Promise<FileRegisteredResponse> {
    const { student } = await this.student(req, id, 'upload');
    const prefix = `students/${student.id}/`;
    const fileId = body.file_path.slice(prefix.length);
    if (!body.file_path.startsWith(prefix) || !/^[0-9a-f-]{36}$/.test(fileId))
      throw new Problem(
        HttpStatus.UNPROCESSABLE_ENTITY,
        `file_path: must be a key issued for this student (${prefix}{uuid})`,
      );
    const stored = await this.storage.head(body.file_path);
    if (!stored)
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'file_path: nothing was uploaded under this key');
    const result = await this.access.run(req, {
      type: 'AddStudentFile',
      userId: student.id,
      file: {
        fileId,
        filePath: body.file_path,
        fileName: body.file_name,
        fileType: body.file_type ?? 'OTHER',
        contentType: stored.contentType,
        size: stored.size,
      },
    });
    return { id: fileId, position: result.position };
  }

  @Post(':id/files/delete')
  @HttpCode(HttpStatus.OK)
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  async remove(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: DeleteFilesBody,
  ): Promise<CommandResult> {
    const { student } = await this.student(req, id, 'delete');
    const ids = body.files_uuids.map((u) => u.toLowerCase());
    const result = await this.access.run(req, {
      type: 'DeleteStudentFiles',
      userId: student.id,
      fileIds: ids,
    });
    const paths = (student.files ?? []).filter((f) => ids.includes(f.id)).map((f) => f.file_path);
    for (const path of paths) await this.storage.remove(path);
    return result;
  }

  /** The student if the caller reaches them (else 404, or 403 for those who reach no student's files). */
  private async student(
    req: AuthenticatedRequest,
    id: string,
    action: StudentFileAction,
  ): Promise<{ actor: Actor; student: UserRow }> {
    const actor = actorOf(req);
    let target: UserRow;
    if (ehcpStudentScope(actor)?.all) {
      target = await this.access.targetRow(id).catch(() => {
        throw studentNotFound();
      });
    } else if (isPartner(actor.permissions)) {
      target = await this.access.visibleTarget(actor, id).catch(() => {
        throw studentNotFound();
      });
      if (action === 'delete') this.access.authorize(actor, target, 'edit');
    } else {
      throw forbidden();
    }
    if (target.user_type !== 'student') throw studentNotFound();
    if (action !== 'view' && !mayUseStudentFiles(actor.permissions, action, null)) throw needsEhcp();
    return { actor, student: target };
  }
}
