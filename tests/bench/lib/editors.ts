import type { WebsocketProvider } from 'y-websocket';

/**
 * Closes a benchmark editor. `WebsocketProvider.destroy()` leaves its awareness's 3-second check
 * running; destroying the document stops it, so the benchmark process ends by itself (issue 19 item 5,
 * decision 0095).
 */
export function closeEditor(editor: WebsocketProvider): void {
  editor.destroy();
  editor.doc.destroy();
}
