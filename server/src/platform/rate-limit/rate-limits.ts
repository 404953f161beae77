import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createClient } from 'redis';
import type { AppConfig } from '../config/config.js';
import { APP_CONFIG } from '../tokens.js';

export interface LimitOptions {
  /** Requests (or failures) allowed per `duration`. */
  points: number;
  /** Window in seconds. */
  duration: number;
  /** Seconds a key stays blocked once over its points (default: none beyond the window). */
  blockDuration?: number;
}

/**
 * Named rate limiters (rate-limiter-flexible), shared by every process through Redis when REDIS_URL is
 * set (keys `${REDIS_PREFIX}:${name}:...`, with an in-memory insurance limiter while Redis is
 * unreachable), in memory otherwise. Sign-in throttling and the public mail routes use it.
 */
@Injectable()
export class RateLimits implements OnModuleDestroy {
  private readonly redis: ReturnType<typeof createClient> | null = null;
  /** Resolves once the Redis client is connected (at once without Redis). */
  readonly ready: Promise<unknown> = Promise.resolve();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (config.redisUrl) {
      this.redis = createClient({ url: config.redisUrl });
      this.redis.on('error', () => {
        // Reconnects on its own; meanwhile the insurance (memory) limiters answer.
      });
      this.ready = this.redis.connect();
    }
  }

  limiter(name: string, options: LimitOptions): RateLimiterAbstract {
    if (!this.redis) return new RateLimiterMemory({ ...options, keyPrefix: name });
    return new RateLimiterRedis({
      ...options,
      storeClient: this.redis,
      useRedisPackage: true,
      keyPrefix: `${this.config.redisPrefix}:${name}`,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }

  async onModuleDestroy(): Promise<void> {
    if (this.redis?.isOpen) await this.redis.quit().catch(() => {});
  }
}
