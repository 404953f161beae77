/** Moved to `server/src/networks/` (decision 0050); this path stays for code written against it. */
export * from '../../networks/networks.read.js';
