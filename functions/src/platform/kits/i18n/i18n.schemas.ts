import { z } from 'zod';
import { LOCALES } from './locales';

export const LocaleSchema = z.enum(LOCALES).meta({
  id: 'Locale',
  description:
    'Language of the texts the server writes for this account (push, inbox, mail, SMS): vi (Vietnamese) or en (English). API error messages stay English.',
});

/** Routes that create an account read its language from Accept-Language. */
export const AcceptLanguageHeadersSchema = z.object({
  'accept-language': z
    .string()
    .optional()
    .describe(
      "The new account's language (`locale`): vi for vi and vi-*, en for en and en-*, by weight (q); absent or naming neither: the server's default (vi unless configured).",
    ),
});
