import { LegalDocument } from './legal-document';
import { PRIVACY_INTRO, PRIVACY_LAST_UPDATED, PRIVACY_SECTIONS } from './privacy-policy-content';

export function PrivacyPolicyPage() {
  return <LegalDocument title="Privacy Policy" lastUpdated={PRIVACY_LAST_UPDATED} intro={PRIVACY_INTRO} sections={PRIVACY_SECTIONS} />;
}
