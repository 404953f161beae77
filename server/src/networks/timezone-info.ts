import { ApiProperty } from '@nestjs/swagger';

/** Spec §3 "Timezone info" and §4 "Timezone mismatch", as GET /users/me reports it. */
export class TimezoneInfo {
  @ApiProperty({ example: 'America/New_York' }) user_timezone!: string;
  @ApiProperty({ nullable: true, type: String, example: 'Europe/London' }) network_timezone!: string | null;
  @ApiProperty({ nullable: true, type: String }) network_name!: string | null;
  @ApiProperty({ description: "The user's clock and the network's differ now" }) is_different!: boolean;
  @ApiProperty({ description: "User's UTC offset minus the network's, in hours (may be fractional)" })
  difference_in_hours!: number;
}

/** UTC offset of a time zone at an instant, in minutes (east positive). */
export function utcOffsetMinutes(timezone: string, at: Date): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{1,2})(?::(\d{2}))?/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The user's time zone against their active network's, at `at` (offsets, so two zone names with the
 * same clock do not count as different, and DST is taken into account).
 */
export function timezoneInfo(
  userTimezone: string,
  network: { name: string; timezone: string } | null,
  at: Date,
): TimezoneInfo {
  if (!network)
    return {
      user_timezone: userTimezone,
      network_timezone: null,
      network_name: null,
      is_different: false,
      difference_in_hours: 0,
    };
  const difference = (utcOffsetMinutes(userTimezone, at) - utcOffsetMinutes(network.timezone, at)) / 60;
  return {
    user_timezone: userTimezone,
    network_timezone: network.timezone,
    network_name: network.name,
    is_different: difference !== 0,
    difference_in_hours: difference,
  };
}
