import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimits } from '../platform/rate-limit/rate-limits.js';
import type { Log } from '../platform/logging/logger.js';
import { LOGGER } from '../platform/tokens.js';

/** Mails of one kind sent to one address per MAIL_WINDOW_SECONDS. */
export const MAIL_MAX_PER_ADDRESS = 3;
/** Mails of one kind asked for from one client address per MAIL_WINDOW_SECONDS. */
export const MAIL_MAX_PER_CLIENT = 20;
export const MAIL_WINDOW_SECONDS = 60 * 60;

/**
 * Limits the mail a public route sends (docs/decisions/0038), per recipient address and per client
 * address, so the portal cannot be used to flood a mailbox or to send mail in bulk. The caller's
 * answer does not change when a mail is held back (no enumeration: a limited address looks like an
 * unknown one); the limit is logged with the address pseudonymised.
 */
@Injectable()
export class MailThrottle {
  private readonly byAddress: RateLimiterAbstract;
  private readonly byClient: RateLimiterAbstract;

  constructor(
    private readonly limits: RateLimits,
    @Inject(LOGGER) private readonly log: Log,
  ) {
    this.byAddress = limits.limiter('mail:address', {
      points: MAIL_MAX_PER_ADDRESS,
      duration: MAIL_WINDOW_SECONDS,
    });
    this.byClient = limits.limiter('mail:client', {
      points: MAIL_MAX_PER_CLIENT,
      duration: MAIL_WINDOW_SECONDS,
    });
  }

  /**
   * Counts one `purpose` mail to `address` asked for by `client` (an IP address); false when either is
   * over its limit. The client is counted first, so a flood from one client does not use up the
   * budget of the addresses it names.
   */
  async allow(purpose: string, address: string, client: string): Promise<boolean> {
    await this.limits.ready;
    const recipient = address.trim().toLowerCase();
    for (const [scope, limiter, key] of [
      ['client', this.byClient, `${purpose}:${client}`],
      ['address', this.byAddress, `${purpose}:${recipient}`],
    ] as const) {
      try {
        await limiter.consume(key);
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        this.log.warn(
          {
            purpose,
            scope,
            client,
            address: pseudonym(recipient),
            retryAfterSeconds: Math.ceil(e.msBeforeNext / 1000),
          },
          'mail rate limit reached: no mail sent',
        );
        return false;
      }
    }
    return true;
  }
}

/** Enough of a hash to tell repeats of one address apart in the log without writing the address. */
const pseudonym = (address: string) => createHash('sha256').update(address).digest('hex').slice(0, 16);
