// The cms module's collections (names only: the module definition loads this file at every cold start).
/** `cms_banners/{id}`, `cms_sections/{id}`, `cms_pages/{slug}`, `cms_app_configs/{surface}`: the operators' records (API only). */
export const CMS_BANNERS = 'cms_banners';
export const CMS_SECTIONS = 'cms_sections';
export const CMS_PAGES = 'cms_pages';
export const CMS_APP_CONFIGS = 'cms_app_configs';
/** `app_config/{surface}`: the live app config, public (apps listen to it, signed in or not). */
export const APP_CONFIG = 'app_config';
/** `cms_audit/{id}`: who created, edited, published, rolled back, unpublished or archived what. */
export const CMS_AUDIT = 'cms_audit';
