import { StatusCard } from './StatusCard';

export function ForbiddenPage() {
  return (
    <StatusCard
      code="403"
      title="Access denied"
      message="Your account does not have access to the portal. Sign in with a different account or contact your administrator."
      actionLabel="Back to sign in"
      actionTo="/login"
    />
  );
}
