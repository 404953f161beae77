import { StatusCard } from './StatusCard';

export function NotFoundPage() {
  return (
    <StatusCard
      code="404"
      title="Page not found"
      message="The page you were looking for does not exist or has moved."
      actionLabel="Go to the portal"
      actionTo="/"
    />
  );
}
