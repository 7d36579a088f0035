// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
/** `schools/{id}`: schools on the map (a catalog of the platform kit), a partner each. */
export const SCHOOLS = 'schools';
/** `school_programs/{schoolId}_{programKey}`: a school's programs: level, ages, tuition. */
export const SCHOOL_PROGRAMS = 'school_programs';
/** `school_leads/{consultationId}`: the school's follow-up of a family after a consultation (its stages, history). */
export const SCHOOL_LEADS = 'school_leads';
