// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
/** `medical_clinics/{id}`: clinics on the map (a catalog of the platform kit), a partner each. */
export const MEDICAL_CLINICS = 'medical_clinics';
/** `medical_doctors/{clinicId}_{doctorKey}`: a clinic's doctors: specialty, fee, appointment length, their account. */
export const MEDICAL_DOCTORS = 'medical_doctors';
