import type { LegalSection } from './legal-document';

export const PRIVACY_LAST_UPDATED = 'June 2023';

export const PRIVACY_INTRO = [
  'This Privacy Policy explains how Kumo Cloud, Inc. ("Kumo", "we", "us" or "our") collects, uses, shares and protects personal information when you visit the Kumo Analytics Cloud portal, create an account, or use the managed analytics service (the "Service").',
  'For the analytics data that customers load into their clusters ("Customer Data"), Kumo acts as a processor on behalf of the customer, who decides what data is processed and why. Questions about that data should go first to the customer that controls it. This policy covers the personal information for which Kumo is responsible.',
];

export const PRIVACY_SECTIONS: LegalSection[] = [
  {
    heading: 'Information we collect',
    paragraphs: ['We collect the following categories of information:'],
    items: [
      'Account information: your full name and business e-mail address when you sign up, are invited, or sign in; the role you hold in each account.',
      'Authentication information: one-time passwords we send you (stored only in a protected, hashed form and for a short time), session tokens, and, for provider staff, identifiers from the single sign-on provider.',
      'Billing information: the subscriptions you create, the funds you add, transaction and receipt records. Card details are collected and stored by our payment processor; we do not receive your full card number.',
      'Usage information: the clusters you deploy, their configuration, status and resource consumption, and the actions you take in the portal, recorded in audit logs.',
      'Technical information: IP address, browser type, your time zone, request identifiers and timestamps, collected in server logs to operate and secure the Service.',
    ],
  },
  {
    heading: 'How we use information',
    paragraphs: ['We use personal information to:'],
    items: [
      'create and administer your account, verify your identity and keep your sessions secure;',
      'provide the Service, including deploying and operating clusters, metering usage and charging it against your subscription balance;',
      'process payments, issue receipts and keep the financial records the law requires;',
      'send you service messages such as one-time passwords, invitations, balance warnings and notices of changes to our terms;',
      'detect, investigate and prevent fraud, abuse and security incidents;',
      'understand how the Service is used so that we can maintain and improve it.',
    ],
  },
  {
    heading: 'Legal bases for processing',
    paragraphs: [
      'Where data protection law such as the GDPR applies, we process personal information to perform our contract with you, to comply with legal obligations (for example, tax and accounting rules), and for our legitimate interests in running a secure and reliable service. Where we rely on consent, you may withdraw it at any time without affecting processing that has already taken place.',
    ],
  },
  {
    heading: 'Cookies and local storage',
    paragraphs: [
      "The portal uses only what it needs to work. It stores your session tokens and basic profile in your browser's local storage so you stay signed in, and it sets a strictly necessary cookie that protects forms against cross-site request forgery. We do not use advertising cookies or third-party tracking scripts. Signing out clears the information the portal stored in your browser.",
    ],
  },
  {
    heading: 'How we share information',
    paragraphs: [
      'We do not sell personal information. We share it only with the service providers that help us run the Service, under contracts that require them to protect it and use it only on our instructions:',
    ],
    items: [
      'cloud infrastructure providers that host the portal and the clusters you deploy;',
      'our payment processor, which handles card payments;',
      'e-mail delivery providers that send one-time passwords and notices;',
      'professional advisers, and authorities where the law requires disclosure or to protect the rights, property or safety of Kumo, our customers or others.',
    ],
  },
  {
    heading: 'International transfers',
    paragraphs: [
      "Kumo is based in the United States, and our service providers may process information in other countries. Where personal information from the European Economic Area, the United Kingdom or Switzerland is transferred to countries without an adequacy decision, we rely on the European Commission's Standard Contractual Clauses or another lawful transfer mechanism.",
    ],
  },
  {
    heading: 'Retention',
    paragraphs: [
      'We keep account information for as long as your account is open. When an account is closed, customers have a 30-day transition period to retrieve their data; after it, we delete account and cluster data, except records we must keep by law (such as invoices and transaction records, typically for seven years) and security logs kept for a limited period. One-time passwords expire within minutes and are never kept in readable form.',
    ],
  },
  {
    heading: 'Security',
    paragraphs: [
      'We protect personal information with encryption in transit, hashed storage of one-time passwords and refresh tokens, role-based access controls, approval of sensitive administrative actions by a second person, and monitoring of our systems. No method of transmission or storage is completely secure, so we cannot guarantee absolute security, but we will notify you and the relevant authorities of a personal data breach as the law requires.',
    ],
  },
  {
    heading: 'Your rights',
    paragraphs: [
      "Depending on where you live, you may have the right to access, correct, delete or export your personal information, to object to or restrict certain processing, and to complain to a data protection authority. You can see your account details in the portal's profile menu. To exercise other rights, write to privacy@kumo.cloud; we will respond within the time the law requires and may need to verify your identity first.",
    ],
  },
  {
    heading: 'Children',
    paragraphs: [
      'The Service is intended for businesses and is not directed to children under 16. We do not knowingly collect personal information from children. If you believe a child has provided us with personal information, contact us and we will delete it.',
    ],
  },
  {
    heading: 'Changes to this policy',
    paragraphs: [
      'We may update this Privacy Policy from time to time. We will post the updated version in the portal with a new "last updated" date and, if the changes are material, notify account owners by e-mail before they take effect.',
    ],
  },
  {
    heading: 'Contact us',
    paragraphs: [
      'For questions about this policy or our handling of personal information, contact our privacy team at privacy@kumo.cloud or write to Kumo Cloud, Inc., Attention: Privacy.',
    ],
  },
];
