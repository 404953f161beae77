import { Body, Controller, Get, Inject, Put, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { inboxOf, NOTIFICATION_KINDS, unreadOf, type InboxRow } from '@portal/projections';
import { AnyAuthenticatedUser } from '../platform/auth/public.decorator.js';
import {
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  metadataFor,
} from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { PageOf, PageQuery } from '../platform/http/paging.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { readCursorAggregate } from './notifications.decider.js';

export class NotificationView {
  @ApiProperty({ format: 'uuid', description: 'The event the notification is about' }) id!: string;
  @ApiProperty({ enum: NOTIFICATION_KINDS }) kind!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ description: 'Where in the portal it leads' }) link!: string;
  @ApiProperty({ description: 'Event position (mark read up to it)' }) position!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty() unread!: boolean;
}

export class NotificationPage extends PageOf(NotificationView) {}

export class UnreadView {
  @ApiProperty() count!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Position of the newest notification' })
  newest_position!: string | null;
}

export class MarkReadBody {
  @ApiPropertyOptional({ description: 'Mark read up to this position (default: the newest)' })
  @IsOptional()
  @Matches(/^\d{1,19}$/, { message: 'up_to_position must be an event position (digits)' })
  up_to_position?: string;
}

export class MarkedReadView extends UnreadView {
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Read-your-writes position (null: nothing to mark)',
  })
  position!: string | null;
}

const view = (r: InboxRow): NotificationView => ({
  id: r.event_id,
  kind: r.kind,
  title: r.title,
  link: r.link,
  position: r.position,
  created_at: new Date(r.created_at).toISOString(),
  unread: r.unread,
});

/**
 * The notification inbox (issue 18 item 3): every signed-in person reads and marks read only their own.
 * The header's bell shows the unread count; the notifications route lists them.
 */
@ApiTags('notifications')
@Controller('api/v1/notifications')
export class NotificationsController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: NotificationPage, description: 'Newest first' })
  async list(@CurrentActor() actor: Actor, @Query() q: PageQuery): Promise<NotificationPage> {
    const page = await inboxOf(this.sql, actor.userId, q);
    return { ...page, items: page.items.map(view) };
  }

  @Get('unread-count')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: UnreadView })
  async unread(@CurrentActor() actor: Actor): Promise<UnreadView> {
    const { count, newest } = await unreadOf(this.sql, actor.userId);
    return { count, newest_position: newest };
  }

  @Put('read')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: MarkedReadView, description: 'Everything up to the position counts as read' })
  async markRead(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Body() body: MarkReadBody,
  ): Promise<MarkedReadView> {
    const upTo = body.up_to_position ?? (await unreadOf(this.sql, actor.userId)).newest;
    if (upTo === null) return { count: 0, newest_position: null, position: null };
    const { position } = await this.commands.run(
      readCursorAggregate,
      { type: 'MarkNotificationsRead', userId: actor.userId, upToPosition: upTo },
      metadataFor(req),
    );
    const after = await unreadOf(this.sql, actor.userId, upTo);
    return { count: after.count, newest_position: after.newest, position };
  }
}
