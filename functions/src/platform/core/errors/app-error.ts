import { generalCode, type ErrorCode } from './codes';

// Typed errors thrown by services and middleware; the error handler maps each to one response shape.
export interface FieldProblem {
  field: string;
  message: string;
  code?: string;
}

export class AppError extends Error {
  /** Stable machine-readable code (see ERROR_CODES); the status's general code unless a thrower names one. */
  code: ErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.code = generalCode(statusCode);
  }

  /** `throw new ConflictError('…').withCode('CALL_BUSY')` */
  withCode(code: ErrorCode): this {
    this.code = code;
    return this;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: FieldProblem[]) {
    super(400, message, details);
    this.code = 'VALIDATION_FAILED';
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required') {
    super(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission for this operation') {
    super(403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super(409, message, details);
  }
}

export class UnprocessableError extends AppError {
  constructor(message: string, details?: unknown) {
    super(422, message, details);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, details?: unknown) {
    super(503, message, details);
  }
}

/** 503 CONTENDED: too many changes to one record at once; nothing was written, a retry a moment later normally succeeds. */
export const contendedError = (message = 'Too many concurrent changes to this record; retry shortly'): AppError =>
  new AppError(503, message, undefined, { 'Retry-After': '1' }).withCode('CONTENDED');
