import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FeedbackLinkStatus } from '@portal/projections';

export const DEFAULT_LINK_HOURS = 72;
export const MAX_LINK_HOURS = 720;

export class IssueFeedbackLinkBody {
  @ApiProperty({ example: 'head@oak.example.com', description: "A partner user of the incident's customer" })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_LINK_HOURS, default: DEFAULT_LINK_HOURS })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_LINK_HOURS)
  expires_in_hours?: number;
}

export class FeedbackRecipientView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() full_name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ nullable: true, type: String, description: 'super-admin, admin, link-contact, parent' })
  customer_type!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The school' }) customer_name!: string | null;
}

export class FeedbackRecipientList {
  @ApiProperty({ type: [FeedbackRecipientView] }) items!: FeedbackRecipientView[];
}

export class FeedbackLinkIssued {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() expires_at!: string;
  @ApiProperty({ description: 'Event position' }) position!: string;
}

export class FeedbackLinkView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ format: 'uuid' }) recipient_user_id!: string;
  @ApiProperty({ enum: ['issued', 'opened', 'used', 'expired', 'revoked'] }) status!: FeedbackLinkStatus;
  @ApiProperty({ format: 'uuid' }) issued_by!: string;
  @ApiProperty() issued_at!: string;
  @ApiProperty() expires_at!: string;
  @ApiProperty({ type: [String], description: 'Every open, oldest first' }) opens!: string[];
  @ApiProperty({ nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) used_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) feedback_id!: string | null;
}

export class FeedbackLinkList {
  @ApiProperty({ type: [FeedbackLinkView], description: 'Newest first' }) items!: FeedbackLinkView[];
}

export class SubmitFeedbackBody {
  @ApiProperty({ maxLength: 20_000 }) @IsString() @IsNotEmpty() @MaxLength(20_000) feedback!: string;
}

export class FeedbackLinkSummary {
  @ApiProperty({ description: 'When the incident happened' }) occurred_at!: string;
  @ApiProperty({ type: [String], description: 'Incident type names' }) types!: string[];
  @ApiProperty({ type: [String], description: 'First name and last initial of each student' })
  students!: string[];
  @ApiProperty({ description: 'When the link stops working' }) expires_at!: string;
}

export class FeedbackSubmitted {
  @ApiProperty({ format: 'uuid' }) feedback_id!: string;
  @ApiProperty({ description: 'Opens the receipt page for a short while' }) confirm_token!: string;
  @ApiProperty() confirm_expires_at!: string;
}

export class FeedbackReceipt {
  @ApiProperty({ format: 'uuid' }) feedback_id!: string;
  @ApiProperty() feedback!: string;
  @ApiProperty() submitted_at!: string;
  @ApiProperty({ description: 'When the incident happened' }) occurred_at!: string;
  @ApiProperty({ type: [String] }) types!: string[];
}
