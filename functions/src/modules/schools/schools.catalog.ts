import { z } from 'zod';
import { defineCatalog, defineCatalogItems } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { partnerCatalogDeps } from '../partners';
import { SCHOOL_PROGRAMS, SCHOOLS } from './schools.collections';

// Schools on the map (the catalog kit) and, under each, its programs (the kit's child items): level, ages, language
// and tuition. Families book a consultation in the school's slots (schools.consultations.ts, the booking engine) and
// the school follows them up (schools.follow-ups.ts).

export { SCHOOLS, SCHOOL_PROGRAMS };

export const SCHOOL_LEVELS = ['PRESCHOOL', 'PRIMARY', 'LOWER_SECONDARY', 'UPPER_SECONDARY', 'VOCATIONAL', 'LANGUAGE_CENTRE'] as const;
export const CURRICULA = ['NATIONAL', 'BILINGUAL', 'INTERNATIONAL'] as const;
// Divisors of the hour: the slots' grid runs from midnight, so every slot starts on the hour or within it evenly.
export const CONSULTATION_MINUTES = [20, 30, 60] as const;

const programs = defineCatalogItems({
  collection: SCHOOL_PROGRAMS,
  segment: 'programs',
  parentField: 'schoolId',
  keyField: 'programKey',
  noun: 'program',
  nouns: 'programs',
  parentNoun: 'school',
  parentNouns: 'schools',
  schemaName: 'SchoolProgram',
  pluralName: 'SchoolPrograms',
  putNote: 'level, ages and tuition',
  photos: true,
  maxPerRecord: 40,
  body: z
    .object({
      name: z.string().trim().min(2).max(80).describe('"Lớp 1 song ngữ", "IELTS 6.5+"'),
      level: z.enum(SCHOOL_LEVELS),
      ageFrom: z.number().int().min(1).max(60),
      ageTo: z.number().int().min(1).max(99),
      language: z.enum(['vi', 'en', 'bilingual']),
      tuitionVndPerMonth: priceRange(0, 500_000_000).describe('Tuition per month'),
      seats: z.number().int().min(1).max(5_000).optional().describe('Places offered for the coming intake'),
      description: z.string().trim().max(2_000).optional(),
    })
    .refine((p) => p.ageFrom <= p.ageTo, { path: ['ageTo'], message: 'ageTo is before ageFrom' }),
  view: z.object({
    name: z.string(),
    level: z.enum(SCHOOL_LEVELS),
    ageFrom: z.number().int(),
    ageTo: z.number().int(),
    language: z.enum(['vi', 'en', 'bilingual']),
    tuitionVndPerMonth: z.number().int(),
    seats: z.number().int().optional(),
    description: z.string().optional(),
    photos: z.array(z.object({ id: z.string(), url: z.string() })).optional(),
  }),
});

export const schoolsCatalog = defineCatalog({
  tag: 'schools',
  collection: SCHOOLS,
  basePath: '/schools',
  noun: 'school',
  nouns: 'schools',
  schemaName: 'School',
  pluralName: 'Schools',
  details: z.object({
    levels: z.array(z.enum(SCHOOL_LEVELS)).min(1).max(6).describe('The levels it teaches'),
    curriculum: z.enum(CURRICULA),
    consultationMinutes: z
      .union(CONSULTATION_MINUTES.map((m) => z.literal(m)))
      .optional()
      .describe('The length of one consultation (the slots’ grid) within the opening hours; 30 unless set'),
    consultationDesks: z.number().int().min(1).max(20).optional().describe('Families one slot takes at once (its consultants); 1 unless set'),
    schoolTrips: z.boolean().optional().describe('Offers school trips (pick-up and drop-off by the app’s SCHOOL_TRIP drivers)'),
    founded: z.number().int().min(1800).max(2100).optional(),
  }),
  detailDefaults: { consultationMinutes: 30, consultationDesks: 1, schoolTrips: false },
  maxRadiusM: 30_000,
  partnerRequired: true,
  filters: z.object({
    level: z.enum(SCHOOL_LEVELS).optional().describe('Only schools teaching this level'),
    curriculum: z.enum(CURRICULA).optional(),
  }),
  keep: (school, f) =>
    (f.level === undefined || school.details.levels.includes(f.level)) && (f.curriculum === undefined || school.details.curriculum === f.curriculum),
  items: programs,
});

export const schools = defineCatalogVertical(schoolsCatalog, { deps: () => partnerCatalogDeps });
export const schoolRecords = schools.service;
export const schoolPrograms = schools.items;
