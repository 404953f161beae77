import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Request } from 'express';
import { Public, RequirePermissions } from '../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, metadataFor } from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import {
  DEFAULT_LINK_HOURS,
  FeedbackLinkIssued,
  FeedbackLinkList,
  FeedbackRecipientList,
  FeedbackLinkSummary,
  FeedbackReceipt,
  FeedbackSubmitted,
  IssueFeedbackLinkBody,
  SubmitFeedbackBody,
} from './feedback-links.dto.js';
import { FeedbackLinksService } from './feedback-links.service.js';
import { LEAD_PERMISSIONS, SafeguardingRules } from './safeguarding.policy.js';
import { isDomainError } from '../platform/domain/domain-error.js';
import { UuidPipe } from '../platform/http/validation.js';

/** Leads issue, list and revoke an incident's partner feedback links (docs/decisions/0030). */
@ApiTags('safeguarding')
@Controller('api/v1/safeguarding-incidents/:id/feedback-links')
export class FeedbackLinksController {
  constructor(private readonly links: FeedbackLinksService) {}

  @Post()
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiCreatedResponse({ type: FeedbackLinkIssued, description: 'The link is mailed through the outbox' })
  @ApiConflictResponse({ description: 'The partner has not been informed yet, or the incident is closed' })
  async issue(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: IssueFeedbackLinkBody,
  ): Promise<FeedbackLinkIssued> {
    return this.links.issue(id, body.email, body.expires_in_hours ?? DEFAULT_LINK_HOURS, metadataFor(req));
  }

  @Get('recipients')
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({
    type: FeedbackRecipientList,
    description: "Who a link may go to: the active partner users of the incident's schools (issue 18)",
  })
  @ApiNotFoundResponse({ description: 'Incident not found' })
  async recipients(@Param('id', UuidPipe) id: string): Promise<FeedbackRecipientList> {
    return { items: await this.links.recipients(id) };
  }

  @Get()
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: FeedbackLinkList })
  @ApiNotFoundResponse({ description: 'Incident not found' })
  async list(@Param('id', UuidPipe) id: string): Promise<FeedbackLinkList> {
    return { items: await this.links.list(id) };
  }

  @Delete(':linkId')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ description: 'Revoked: the link stops working at once' })
  @ApiConflictResponse({ description: 'Already used or revoked' })
  async revoke(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Param('linkId', UuidPipe) linkId: string,
  ): Promise<{ id: string; position: string }> {
    return { id: linkId, position: await this.links.revoke(id, linkId, metadataFor(req)) };
  }
}

/** Unknown or dead tokens allowed per client address per 15 minutes before it is refused (429). */
export const FEEDBACK_MAX_FAILURES = 30;
const FAILURE_WINDOW_SECONDS = 15 * 60;

/**
 * The link's holder, without an account (docs/decisions/0030): open the link (every open is recorded),
 * submit feedback once, see the receipt. Guessing tokens is rate limited per client address.
 */
@ApiTags('safeguarding')
@Controller('api/v1/safeguarding-feedback')
export class FeedbackPublicController {
  private readonly failures = new RateLimiterMemory({
    points: FEEDBACK_MAX_FAILURES,
    duration: FAILURE_WINDOW_SECONDS,
    blockDuration: FAILURE_WINDOW_SECONDS,
    keyPrefix: 'sg-feedback',
  });

  constructor(private readonly links: FeedbackLinksService) {}

  @Get(':token')
  @Public()
  @ApiOkResponse({ type: FeedbackLinkSummary, description: 'The open is recorded' })
  @ApiNotFoundResponse({ description: 'Unknown link' })
  @ApiGoneResponse({ description: 'Used, expired or revoked link, or the incident no longer takes feedback' })
  @ApiTooManyRequestsResponse({ description: 'Too many unknown or dead links from this address' })
  async open(@Req() req: AuthenticatedRequest, @Param('token') token: string): Promise<FeedbackLinkSummary> {
    return this.limited(req, () => this.links.open(token, metadataFor(req)));
  }

  @Post(':token')
  @Public()
  @ApiCreatedResponse({
    type: FeedbackSubmitted,
    description: 'Recorded on the link’s incident; the link is used up',
  })
  @ApiNotFoundResponse({ description: 'Unknown link' })
  @ApiGoneResponse({ description: 'Used, expired or revoked link' })
  @ApiConflictResponse({ description: 'The incident no longer takes feedback' })
  async submit(
    @Req() req: AuthenticatedRequest,
    @Param('token') token: string,
    @Body() body: SubmitFeedbackBody,
  ): Promise<FeedbackSubmitted> {
    return this.limited(req, () => this.links.submit(token, body.feedback, metadataFor(req)));
  }

  @Get(':feedbackId/confirm/:token')
  @Public()
  @ApiOkResponse({ type: FeedbackReceipt, description: 'What was submitted (receipt token, short-lived)' })
  @ApiNotFoundResponse({ description: 'Unknown or expired receipt' })
  async receipt(
    @Req() req: AuthenticatedRequest,
    @Param('feedbackId', UuidPipe) feedbackId: string,
    @Param('token') token: string,
  ): Promise<FeedbackReceipt> {
    return this.limited(req, () => this.links.receipt(feedbackId, token));
  }

  private async limited<T>(req: Request, work: () => Promise<T>): Promise<T> {
    const key = req.ip ?? 'unknown';
    const state = await this.failures.get(key);
    if (state && state.consumedPoints >= FEEDBACK_MAX_FAILURES)
      throw new Problem(HttpStatus.TOO_MANY_REQUESTS, 'Too many invalid links; try again later');
    try {
      return await work();
    } catch (e) {
      if (isDomainError(e, 'not_found') || isDomainError(e, 'gone'))
        await this.failures.penalty(key, 1).catch(() => undefined);
      throw e;
    }
  }
}
