import { StatusCard } from './StatusCard';

/** Public flows whose links are invalid or expired (spec §8). */
export function InvalidLinkPage({ flow }: { flow: string }) {
  return (
    <StatusCard
      code="Link expired"
      title="This link is invalid or has expired"
      message={`The ${flow.toLowerCase()} link you followed is no longer valid. Ask for a new link, or sign in if you already have an account.`}
      actionLabel="Go to sign in"
      actionTo="/login"
    />
  );
}

/** A public page whose flow is not built yet. */
export function PublicNotBuiltPage({ flow }: { flow: string }) {
  return (
    <StatusCard
      code={flow}
      title="Not built yet"
      message={`The ${flow.toLowerCase()} page is not built yet. Please check back soon.`}
      actionLabel="Go to sign in"
      actionTo="/login"
    />
  );
}
