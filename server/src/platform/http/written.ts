import { ApiProperty } from '@nestjs/swagger';

/**
 * The answer of a command that wrote events: the `position` of its last event, to send back as
 * `X-Min-Position` so the next read sees the write (read-your-writes).
 */
export class PositionAnswer {
  @ApiProperty({ description: 'Event position; send it as X-Min-Position on the next read', example: '42' })
  position!: string;
}

/** The answer of a command on one resource: its `id` (new for a create) and the `position`. */
export class Written {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Event position; send it as X-Min-Position on the next read' })
  position!: string;
}
