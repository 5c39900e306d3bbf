import { LegalDocument } from './legal-document';
import { TERMS_INTRO, TERMS_LAST_UPDATED, TERMS_SECTIONS } from './terms-of-use-content';

export function TermsOfUsePage() {
  return <LegalDocument title="Terms of Use" lastUpdated={TERMS_LAST_UPDATED} intro={TERMS_INTRO} sections={TERMS_SECTIONS} />;
}
