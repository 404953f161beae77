import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { Problem } from '../platform/http/problem.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import { APP_CONFIG } from '../platform/tokens.js';
import type { AppConfig } from '../platform/config/config.js';
import { TokenLinks, type TokenPurpose } from './token-links.js';

/** Spec §5: a minimum password length of 8. */
export const MIN_PASSWORD_LENGTH = 8;

/** `code` of every answer about an unusable link: the client maps it to its invalid-token page. */
export const INVALID_TOKEN_CODE = 'INVALID_TOKEN';

/** A token from a mailed link plus the password to set with it (password reset, activation). */
export class TokenPasswordBody {
  @ApiProperty({ description: 'The token from the mailed link' })
  @IsString()
  @Length(43, 43, { message: 'token is not a valid link token' })
  token!: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH, format: 'password' })
  @IsString()
  @Length(MIN_PASSWORD_LENGTH, 1024, {
    message: `password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
  })
  password!: string;
}

export class TokenParam {
  @IsString()
  token!: string;
}

/** 400 `{ detail, code: 'INVALID_TOKEN' }`: unknown, used, expired or for another purpose. */
export const invalidLink = (detail: string) =>
  new Problem(HttpStatus.BAD_REQUEST, detail, { code: INVALID_TOKEN_CODE });

export interface LinkMail {
  purpose: TokenPurpose;
  /** The link's subject: a user id, or an invitation id for 'partner-invite'. */
  subjectId: string;
  minutes: number;
  to: string;
  subject: string;
  /** Client route the link opens, e.g. '/activate'; the token goes in its `token` query parameter. */
  route: string;
  /** The mail's lines, given the link. */
  text: (link: string) => string[];
}

/**
 * The shared part of every "mail a single-use link, then act on it" flow (password reset, activation,
 * partner invitation, notification e-mail): earlier open links of the purpose stop working, a new one
 * is issued and mailed through the outbox; using it answers one invalid-link shape for every failure.
 */
@Injectable()
export class TokenLinkFlow {
  constructor(
    private readonly links: TokenLinks,
    private readonly outbox: MailOutbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async mail(m: LinkMail): Promise<void> {
    await this.links.revokeOpen(m.purpose, m.subjectId);
    const token = await this.links.issue(m.purpose, m.subjectId, m.minutes);
    const link = `${this.config.publicUrl}${m.route}?token=${token}`;
    await this.outbox.enqueue(m.to, m.subject, m.text(link).join('\n'));
  }

  /** The link's subject, without using the link up; else throws the invalid-link answer. */
  async check(purpose: TokenPurpose, token: string, detail: string): Promise<string> {
    const subject = await this.links.peek(purpose, token);
    if (!subject) throw invalidLink(detail);
    return subject;
  }

  /** The link's subject, using the link up (once); else throws the invalid-link answer. */
  async use(purpose: TokenPurpose, token: string, detail: string): Promise<string> {
    const subject = await this.links.consume(purpose, token);
    if (!subject) throw invalidLink(detail);
    return subject;
  }
}

/** "7 days" / "2 hours" / "30 minutes" for mail texts. */
export function humanMinutes(minutes: number): string {
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
