import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** How far the start-up work (today: seeding the demo organisation) has come. */
export interface StartingProgress {
  /** What is being loaded now, e.g. "students, contacts and one-page profiles". */
  stage: string;
  /** 1-based number of the stage and how many there are. */
  stageNumber: number;
  stages: number;
  /** Items done and expected within the stage (0 of 0 when the stage is not counted). */
  done: number;
  total: number;
}

/**
 * "Ready means ready": while start-up work that fills the read models runs after the port is open, the
 * portal answers every caller but the start-up work itself with 503 and what it is doing, and serves a
 * self-refreshing "starting" page instead of the client, so nobody sees half-seeded lists. Health says
 * `starting` (503) until then. A process that has nothing to load is ready from the start.
 */
@Injectable()
export class Readiness {
  private progress: StartingProgress | null = null;
  /** Session tokens whose requests pass while starting (the seeding's own). */
  private readonly passTokens = new Set<string>();
  private readonly listeners: ((message: string) => void)[] = [];

  get ready(): boolean {
    return this.progress === null;
  }

  get starting(): StartingProgress | null {
    return this.progress === null ? null : { ...this.progress };
  }

  /** Starts (or moves to) a stage of start-up work; `token` is the worker's own session token. */
  begin(stage: Omit<StartingProgress, 'done' | 'total'> & { total?: number }, token?: string): void {
    if (token) this.passTokens.add(token);
    this.progress = { ...stage, done: 0, total: stage.total ?? 0 };
    this.announce();
  }

  /** Lets another session of the start-up work pass while starting (the demo acting as a teacher). */
  admit(token: string): void {
    if (this.progress !== null) this.passTokens.add(token);
  }

  /** Hears each new stage and the moment the portal is ready (e.g. to print them at start). */
  onChange(listener: (message: string) => void): void {
    this.listeners.push(listener);
  }

  private announced = '';

  private announce(): void {
    const message = this.describe();
    if (message === this.announced) return; // a stage begun again (e.g. with its token) is said once
    this.announced = message;
    for (const listener of this.listeners) listener(message);
  }

  /** Counts one more item done in the current stage. */
  advance(): void {
    if (this.progress) this.progress.done = Math.min(this.progress.done + 1, this.progress.total);
  }

  markReady(): void {
    if (this.progress === null) return;
    this.progress = null;
    this.passTokens.clear();
    this.announce();
  }

  describe(): string {
    const p = this.progress;
    if (!p) return 'ready';
    const count = p.total > 0 ? ` (${p.done} of ${p.total})` : '';
    return `loading demo data, step ${p.stageNumber} of ${p.stages}: ${p.stage}${count}`;
  }

  /** Express middleware: installed before the routes, so it sees every HTTP request first. */
  gate() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (this.ready || req.path === '/api/v1/health' || this.passes(req)) return next();
      res.setHeader('Retry-After', '2');
      res.setHeader('Cache-Control', 'no-store');
      const detail = `The portal is starting: ${this.describe()}. Try again in a few seconds.`;
      if (/^\/(api|live|collab|socket\.io)(\/|$)/.test(req.path) || req.method !== 'GET') {
        res.status(503).json({ detail });
        return;
      }
      if (/\.[a-z0-9]+$/i.test(req.path)) return next(); // the client's static files, harmless
      res.status(503).type('html').send(startingPage(detail));
    };
  }

  private passes(req: Request): boolean {
    const header = req.headers['requestverificationtoken'] ?? req.headers.authorization;
    const token = typeof header === 'string' ? header.replace(/^Bearer\s+/i, '') : undefined;
    return token !== undefined && this.passTokens.has(token);
  }
}

function startingPage(detail: string): string {
  const text = detail.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Tutoring Portal is starting</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 15vh auto; padding: 0 1rem; color: #1a1b1e">
<h1 style="font-size: 1.4rem; color: #0f716c">Tutoring Portal is starting</h1>
<p role="status">${text}</p><p>This page reloads by itself.</p></body></html>`;
}
