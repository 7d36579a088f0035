import { z } from 'zod';

// Contact fields shared by every module that takes an email or a phone.
export const EmailSchema = z.email({ message: 'must be a valid email address' }).max(254).meta({ example: 'lan@example.com' });
export const PhoneSchema = z
  .string()
  .regex(/^\+[1-9]\d{7,14}$/, { message: 'must be an E.164 phone number such as +84912345678' })
  .meta({ example: '+84912345678' });
