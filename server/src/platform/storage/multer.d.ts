// Minimal typing of multer 2 (installed with @nestjs/platform-express, which ships no @types/multer).
declare module 'multer' {
  import type { Request, RequestHandler } from 'express';
  export interface File {
    fieldname: string;
    originalname: string;
    mimetype: string;
    size: number;
    destination: string;
    filename: string;
    path: string;
  }
  export interface StorageEngine {
    _handleFile(req: Request, file: File, cb: (error?: Error | null, info?: Partial<File>) => void): void;
    _removeFile(req: Request, file: File, cb: (error: Error | null) => void): void;
  }
  export interface Options {
    storage?: StorageEngine;
    limits?: { fileSize?: number; files?: number; fields?: number; fieldSize?: number; parts?: number };
    fileFilter?(req: Request, file: File, cb: (error: Error | null, accept?: boolean) => void): void;
  }
  export class MulterError extends Error {
    code: string;
    field?: string;
  }
  interface Multer {
    single(field: string): RequestHandler;
  }
  interface MulterFactory {
    (options?: Options): Multer;
    diskStorage(options: {
      destination: string | ((req: Request, file: File, cb: (e: Error | null, dir: string) => void) => void);
      filename?: (req: Request, file: File, cb: (e: Error | null, name: string) => void) => void;
    }): StorageEngine;
    MulterError: typeof MulterError;
  }
  const multer: MulterFactory;
  export default multer;
}
