import { createHash } from 'node:crypto';

/** RFC 4122 version-5 UUID (name-based, SHA-1): the same name always gives the same id. */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const bytes = createHash('sha1').update(ns).update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Namespace of ids the portal derives from names. */
export const PORTAL_NAMESPACE = '6f1c1a52-3a0e-4f43-9d55-5b3b7f2c9e10';
