/** Wire shapes every area shares (the server's `PageOf(View)` and command answers). */

/** One page of a list endpoint. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
}

/** A command's answer: the event-store position the API client sends back as `X-Min-Position`. */
export interface PositionAnswer {
  position: string;
}

/** A command's answer that names the record it wrote. */
export interface Written extends PositionAnswer {
  id: string;
}
