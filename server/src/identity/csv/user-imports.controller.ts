import { randomBytes, randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  HttpStatus,
  Post,
  Query,
  Req,
  Res,
  UploadedFile,
  UploadedFiles,
  UseInterceptors,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AnyFilesInterceptor, FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { UserRow } from '@portal/projections';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, actorOf } from '../../platform/auth/request-context.js';
import { Problem } from '../../platform/http/problem.js';
import { LiveServer } from '../../platform/live/live-server.js';
import { LiveRooms } from '../../platform/live/room-policy.js';
import { Credentials } from '../credentials.js';
import { MARKER_PERMISSIONS, isAdmin } from '../policy/policy.js';
import { UserAccess } from '../user-access.js';
import { UserCreation, creationDenial, loginOf } from '../user-creation.js';
import { UsersReadModel } from '../users.read.js';
import { GeneratePasswordsBody, ImportQuery, ImportResult } from './csv.dto.js';
import {
  IMPORT_COLUMNS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  parseImportFile,
  validateImport,
} from './import-rows.js';
import { sendTable } from './tabular.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const PARTNER_MARKER = MARKER_PERMISSIONS.partner;
const UPLOAD_LIMITS = { limits: { fileSize: MAX_IMPORT_BYTES, files: 1 } };
/** A progress message at most every this many rows (and always at the start and the end). */
const PROGRESS_EVERY = 25;

const FILE_BODY = (field: string) => ({
  schema: {
    type: 'object',
    required: [field],
    properties: { [field]: { type: 'string', format: 'binary', description: 'CSV file' } },
  },
});
const IMPORT_DESCRIPTION =
  `CSV with a header row; columns ${IMPORT_COLUMNS.join(', ')} (first_name, last_name, email, type ` +
  `required). At most ${MAX_IMPORT_ROWS} rows and 5 MB. Any bad row: nothing is imported, 422 ` +
  '{detail, errors: [{row, column, reason}]}.';

/** What multer hands over for an uploaded file (memory storage). */
interface UploadedCsv {
  buffer: Buffer;
  size: number;
  originalname: string;
}

export interface GeneratedPassword {
  user: UserRow;
  password: string;
}

/**
 * CSV user imports and password generation (spec §7 "Users"; docs/decisions/0019). Every row is
 * validated before any user is created; users are then created one by one through the same path as
 * POST /users/ (`UserCreation`), with the caller's metadata, reporting progress on the live channel.
 */
@ApiTags('users')
@Controller('api/v1/users')
export class UserImportsController {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
    private readonly creation: UserCreation,
    private readonly credentials: Credentials,
    private readonly modules: ModuleRef,
  ) {}

  @Post('import')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @UseInterceptors(AnyFilesInterceptor(UPLOAD_LIMITS))
  @ApiConsumes('multipart/form-data')
  @ApiBody({ description: `${IMPORT_DESCRIPTION} Any file field name.`, ...FILE_BODY('file') })
  @ApiCreatedResponse({ type: ImportResult })
  @ApiUnprocessableEntityResponse({ description: 'Bad rows (none imported)' })
  @ApiPayloadTooLargeResponse({ description: 'More than 5 MB or 10,000 rows' })
  async import(
    @Req() req: AuthenticatedRequest,
    @Query() q: ImportQuery,
    @UploadedFiles() files: UploadedCsv[] | undefined,
  ): Promise<ImportResult & { position: string }> {
    return this.importFile(req, q, files?.[0], 'file');
  }

  @Post('create_users_csv')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @UseInterceptors(FileInterceptor('csvfile', UPLOAD_LIMITS))
  @ApiConsumes('multipart/form-data')
  @ApiBody({ description: IMPORT_DESCRIPTION, ...FILE_BODY('csvfile') })
  @ApiCreatedResponse({ type: ImportResult })
  @ApiUnprocessableEntityResponse({ description: 'Bad rows (none imported)' })
  @ApiPayloadTooLargeResponse({ description: 'More than 5 MB or 10,000 rows' })
  async createUsersCsv(
    @Req() req: AuthenticatedRequest,
    @Query() q: ImportQuery,
    @UploadedFile() file: UploadedCsv | undefined,
  ): Promise<ImportResult & { position: string }> {
    return this.importFile(req, q, file, 'csvfile');
  }

  @Post('generate_passwords')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description:
      'passwords.csv (id, login, email, full_name, password): shown once, never stored in clear; ' +
      "the users' sessions end",
  })
  async generatePasswords(
    @Req() req: AuthenticatedRequest,
    @Body() body: GeneratePasswordsBody,
    @Res() res: Response,
  ): Promise<void> {
    const actor = actorOf(req);
    const ids = [...new Set(body.user_ids.map((id) => id.toLowerCase()))];
    if (ids.length === 0) throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'user_ids: at least one');
    // Every target first: one that is not visible or not allowed refuses the whole request.
    const targets: UserRow[] = [];
    for (const id of ids) {
      const target = await this.access.visibleTarget(actor, id);
      this.access.authorize(actor, target, 'password');
      targets.push(target);
    }
    const generated: GeneratedPassword[] = [];
    for (const user of targets) {
      const password = generatedPassword();
      await this.credentials.setPassword(user.id, password);
      // PasswordChanged (no secret in it) ends the user's sessions.
      await this.access.run(req, { type: 'ChangePassword', userId: user.id });
      generated.push({ user, password });
    }
    res.setHeader('Pragma', 'no-cache');
    await sendTable(res, {
      filename: 'passwords',
      asExcel: false,
      columns: [
        { header: 'id', value: (g) => g.user.id },
        { header: 'login', value: (g) => g.user.login },
        { header: 'email', value: (g) => g.user.email },
        { header: 'full_name', value: (g) => g.user.full_name },
        { header: 'password', value: (g) => g.password },
      ],
      rows: generated,
    });
  }

  private async importFile(
    req: AuthenticatedRequest,
    q: ImportQuery,
    file: UploadedCsv | undefined,
    field: string,
  ): Promise<ImportResult & { position: string }> {
    if (!file) throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `${field}: a CSV file is required`);
    const actor = actorOf(req);
    const rows = parseImportFile(file.buffer);
    // Partners create users of their own customer: an empty customer_id means theirs.
    if (!isAdmin(actor.permissions) && actor.customerId)
      for (const r of rows) r.values.customer_id ||= actor.customerId;
    const logins = rows.flatMap((r) =>
      r.values.email || r.values.login
        ? [loginOf({ email: r.values.email ?? '', login: r.values.login || undefined })]
        : [],
    );
    const validated = validateImport(rows, {
      existingLogins: await this.users.existingLogins(logins),
      skipDuplicates: q.skip_duplicates ?? false,
      denial: (user) => detailOf(creationDenial(actor, user)),
    });
    if (validated.errors.length) {
      const first = validated.errors[0]!;
      throw new Problem(
        HttpStatus.UNPROCESSABLE_ENTITY,
        `${validated.errors.length} error(s); nothing was imported. Row ${first.row}, ${first.column}: ${first.reason}`,
        { errors: validated.errors },
      );
    }

    const importId = q.import_id ?? randomUUID();
    const total = rows.length;
    let done = validated.skipped;
    let skipped = validated.skipped;
    let imported = 0;
    let position = '0';
    const userIds: string[] = [];
    this.progress(actor.userId, { importId, done, total });
    for (const { row, user } of validated.users) {
      try {
        const created = await this.creation.create(req, actor, user, { checkedLogin: true });
        position = created.position;
        userIds.push(created.id);
        imported++;
      } catch (e) {
        // Created by someone else since the check.
        if (e instanceof Problem && e.getStatus() === 409 && q.skip_duplicates) skipped++;
        else if (e instanceof Problem && e.getStatus() === 409)
          throw new Problem(
            HttpStatus.CONFLICT,
            `Row ${row}: a user with login ${loginOf(user)} was created meanwhile; ${imported} user(s) imported before it`,
            { imported, import_id: importId, position },
          );
        else throw e;
      }
      done++;
      if (done % PROGRESS_EVERY === 0 && done < total) this.progress(actor.userId, { importId, done, total });
    }
    this.progress(actor.userId, { importId, done: total, total });
    return { imported, skipped, import_id: importId, user_ids: userIds, position };
  }

  /** `import-progress` to the caller's own room (every process's sockets, through the adapter). */
  private progress(userId: string, progress: { importId: string; done: number; total: number }) {
    const nsp = this.modules.get(LiveServer, { strict: false }).namespace;
    nsp?.to(LiveRooms.user(userId)).emit('import-progress', progress);
  }
}

const detailOf = (problem: Problem | null) =>
  problem ? ((problem.getResponse() as { detail?: string }).detail ?? problem.message) : null;

/**
 * 16 random base64url characters (96 bits) that never start with `-`: a leading `-` would be escaped
 * against CSV formula injection in the download, so the password shown would not be the one set.
 */
export function generatedPassword(): string {
  for (;;) {
    const password = randomBytes(12).toString('base64url');
    if (!password.startsWith('-')) return password;
  }
}
