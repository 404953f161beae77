/** Spec §5: a field's error message with its first letter capitalised. */
export function capitalise(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/**
 * A server or form message for a field, ready to show under it: a leading snake_case field name
 * ("first_name should not be empty") reads as words, and the first letter is capitalised (spec §5).
 */
export function fieldMessage(message: string | undefined): string | undefined {
  if (!message) return undefined;
  return capitalise(message.replace(/^[a-z]+(?:_[a-z]+)+/, (name) => name.replace(/_/g, ' ')));
}
