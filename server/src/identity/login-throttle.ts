import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimits } from '../platform/rate-limit/rate-limits.js';

/** Failed sign-ins allowed per account before it is locked for ACCOUNT_LOCK_SECONDS. */
export const ACCOUNT_MAX_FAILURES = 5;
export const ACCOUNT_LOCK_SECONDS = 15 * 60;
/** Failed sign-ins allowed per client address per hour. */
export const IP_MAX_FAILURES = 50;
export const IP_LOCK_SECONDS = 60 * 60;

export type ThrottleVerdict =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; scope: 'account' | 'ip' };

/**
 * Login throttling per account and per client address, on the shared rate limiters (`RateLimits`:
 * Redis when REDIS_URL is set, memory otherwise). A successful sign-in clears the account's counter;
 * the address counter only decays.
 */
@Injectable()
export class LoginThrottle {
  private readonly account: RateLimiterAbstract;
  private readonly ip: RateLimiterAbstract;

  constructor(private readonly limits: RateLimits) {
    this.account = limits.limiter('login:account', {
      points: ACCOUNT_MAX_FAILURES,
      duration: ACCOUNT_LOCK_SECONDS,
      blockDuration: ACCOUNT_LOCK_SECONDS,
    });
    this.ip = limits.limiter('login:ip', {
      points: IP_MAX_FAILURES,
      duration: IP_LOCK_SECONDS,
      blockDuration: IP_LOCK_SECONDS,
    });
  }

  async check(login: string, ip: string): Promise<ThrottleVerdict> {
    await this.limits.ready;
    const [byAccount, byIp] = await Promise.all([this.account.get(key(login)), this.ip.get(ip)]);
    if (byAccount && byAccount.consumedPoints > ACCOUNT_MAX_FAILURES - 1 && byAccount.msBeforeNext > 0) {
      return {
        allowed: false,
        scope: 'account',
        retryAfterSeconds: Math.ceil(byAccount.msBeforeNext / 1000),
      };
    }
    if (byIp && byIp.consumedPoints > IP_MAX_FAILURES - 1 && byIp.msBeforeNext > 0) {
      return { allowed: false, scope: 'ip', retryAfterSeconds: Math.ceil(byIp.msBeforeNext / 1000) };
    }
    return { allowed: true };
  }

  async failed(login: string, ip: string): Promise<void> {
    await this.limits.ready;
    await Promise.all([
      this.account.penalty(key(login), 1).catch(() => {}),
      this.ip.penalty(ip, 1).catch(() => {}),
    ]);
  }

  async succeeded(login: string): Promise<void> {
    await this.limits.ready;
    await this.account.delete(key(login)).catch(() => {});
  }
}

const key = (login: string) => login.trim().toLowerCase();
