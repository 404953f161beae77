import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createClient } from 'redis';
import { APP_CONFIG } from '../platform/tokens.js';
import type { AppConfig } from '../platform/config/config.js';

/** Failed sign-ins allowed per account before it is locked for ACCOUNT_LOCK_SECONDS. */
export const ACCOUNT_MAX_FAILURES = 5;
export const ACCOUNT_LOCK_SECONDS = 15 * 60;
/** Failed sign-ins allowed per client address per hour. */
export const IP_MAX_FAILURES = 50;
export const IP_LOCK_SECONDS = 60 * 60;

export type ThrottleVerdict =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; scope: 'account' | 'ip' };

/**
 * Login throttling per account and per client address (rate-limiter-flexible). Counters live in Redis
 * when REDIS_URL is set (shared by every process), in memory otherwise. A successful sign-in clears the
 * account's counter; the address counter only decays.
 */
@Injectable()
export class LoginThrottle implements OnModuleDestroy {
  private readonly account: RateLimiterAbstract;
  private readonly ip: RateLimiterAbstract;
  private readonly redis: ReturnType<typeof createClient> | null = null;
  private ready: Promise<unknown> = Promise.resolve();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const account = {
      points: ACCOUNT_MAX_FAILURES,
      duration: ACCOUNT_LOCK_SECONDS,
      blockDuration: ACCOUNT_LOCK_SECONDS,
    };
    const ip = { points: IP_MAX_FAILURES, duration: IP_LOCK_SECONDS, blockDuration: IP_LOCK_SECONDS };
    if (config.redisUrl) {
      this.redis = createClient({ url: config.redisUrl });
      this.redis.on('error', () => {
        // Reconnects on its own; a failed check answers as the limiter's insurance (memory) decides.
      });
      this.ready = this.redis.connect();
      const prefix = `${config.redisPrefix}:login`;
      this.account = new RateLimiterRedis({
        ...account,
        storeClient: this.redis,
        useRedisPackage: true,
        keyPrefix: `${prefix}:account`,
        insuranceLimiter: new RateLimiterMemory(account),
      });
      this.ip = new RateLimiterRedis({
        ...ip,
        storeClient: this.redis,
        useRedisPackage: true,
        keyPrefix: `${prefix}:ip`,
        insuranceLimiter: new RateLimiterMemory(ip),
      });
    } else {
      this.account = new RateLimiterMemory({ ...account, keyPrefix: 'login:account' });
      this.ip = new RateLimiterMemory({ ...ip, keyPrefix: 'login:ip' });
    }
  }

  async check(login: string, ip: string): Promise<ThrottleVerdict> {
    await this.ready;
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
    await this.ready;
    await Promise.all([
      this.account.penalty(key(login), 1).catch(() => {}),
      this.ip.penalty(ip, 1).catch(() => {}),
    ]);
  }

  async succeeded(login: string): Promise<void> {
    await this.ready;
    await this.account.delete(key(login)).catch(() => {});
  }

  async onModuleDestroy(): Promise<void> {
    if (this.redis?.isOpen) await this.redis.quit().catch(() => {});
  }
}

const key = (login: string) => login.trim().toLowerCase();
