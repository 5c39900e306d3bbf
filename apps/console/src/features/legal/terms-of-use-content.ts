import type { LegalSection } from './legal-document';

export const TERMS_LAST_UPDATED = 'January 1, 2023';

export const TERMS_INTRO = [
  'These Terms of Use (the "Terms") govern your access to and use of Kumo Analytics Cloud, the managed analytics service operated by Kumo Cloud, Inc. ("Kumo", "we", "us" or "our"), including the self-service portal, the analytics clusters deployed through it, the Kumo Manager tool, the application programming interfaces and the related documentation (together, the "Service").',
  'By creating an account, clicking to accept these Terms, or using the Service, you agree to be bound by them. If you accept these Terms on behalf of a company or other legal entity, you represent that you have the authority to bind that entity, and "you" and "Customer" refer to that entity. If you do not agree to these Terms, do not use the Service.',
];

export const TERMS_SECTIONS: LegalSection[] = [
  {
    heading: 'Definitions',
    paragraphs: ['In these Terms the following words have the meanings given below:'],
    items: [
      '"Account" means the customer account created when you sign up, under which subscriptions, clusters and users are managed.',
      '"Account Owner" means the person who created the Account; "Authorized Users" means the Account Owner and the people the Account Owner or an Account Admin invites to the Account.',
      '"Subscription" means a prepaid subscription within the Account that holds Funds and pays for the clusters deployed under it.',
      '"Funds" means the prepaid amounts, in United States dollars, that you add to a Subscription; "Free Credits" means promotional amounts that Kumo adds to a Subscription without charge.',
      '"Customer Data" means the data you or your Authorized Users load into, process with or store in the Service.',
      '"Documentation" means the user guides and help pages Kumo publishes for the Service, as updated from time to time.',
    ],
  },
  {
    heading: 'Accounts and eligibility',
    paragraphs: [
      'To use the Service you must register with a valid business e-mail address and your full name. You sign in with a one-time password sent to that address; you are responsible for keeping access to your e-mail account secure, because anyone who can read it can sign in as you.',
      'You must be at least 18 years old and able to form a binding contract. You are responsible for all activity under your Account, for the accuracy of the information you provide, and for ensuring that your Authorized Users comply with these Terms. Notify us promptly at security@kumo.cloud if you suspect unauthorized access to your Account.',
      'For your protection, the Service locks sign-in for an e-mail address for the rest of the calendar day after three consecutive invalid one-time passwords, or three invalid one-time passwords within one hour.',
    ],
  },
  {
    heading: 'The Service',
    paragraphs: [
      'The Service lets you create prepaid Subscriptions, deploy managed analytics clusters on supported cloud infrastructure, start and stop those clusters, review cost and credit consumption, download receipts and invite Authorized Users. Clusters run in cloud regions you select; deployment of a new cluster usually takes about one hour.',
      'We may improve, modify or add features to the Service at any time. Where a change materially reduces the core functionality of a cluster you are running, we will give you reasonable advance notice through the portal or by e-mail. Features marked as preview, beta or early access are provided for evaluation, may change or be withdrawn, and are excluded from any warranty or service commitment.',
    ],
  },
  {
    heading: 'Free trial and promotional credits',
    paragraphs: [
      'New Accounts may be offered a free trial of the Service. A free trial lasts 30 days from the day the Account is created, or ends earlier when the promotional credits granted for it are used up. At the end of the free trial, continued use of the Service requires Funds in a Subscription; if none have been added, the Service may be suspended as described in section 8.',
      'Free Credits, including any sign-up bonus, are granted at our discretion, have no cash value, cannot be transferred, sold or refunded, and expire 30 days after they are issued. Usage is charged against Free Credits first, beginning with those that expire soonest, and then against paid Funds. Unused Free Credits are forfeited on expiry or when the Account is closed.',
    ],
  },
  {
    heading: 'Prepaid subscriptions, fees and billing',
    paragraphs: [
      'The Service is sold on a prepaid basis. You add Funds to a Subscription by card through our payment processor, and the usage of the clusters deployed under that Subscription is charged against its balance at the service rates shown in the portal at the time of use. All amounts are in United States dollars and exclude taxes, which you are responsible for except taxes on our net income.',
      'Usage is metered per cluster and per service. Each billing unit is one hour or part of an hour: a service that runs for any part of an hour is charged for the full hour. Stopped clusters incur no compute charges, but storage and backup charges continue to apply until the cluster is deleted.',
      'A Subscription balance may fall below zero only down to the overdue limit set for your Account. To keep using the Service you must maintain the minimum balance shown in the portal; if the balance falls below the overdue limit, your running clusters may be stopped until Funds are added.',
      "Except as expressly stated in these Terms or required by law, all fees and Funds are non-refundable, and payment obligations are non-cancellable once incurred. We may change service rates on at least 30 days' notice; changed rates apply to usage after the effective date shown in the portal.",
    ],
  },
  {
    heading: 'Customer Data',
    paragraphs: [
      'You retain all rights in your Customer Data. You grant Kumo a limited, worldwide licence to host, copy, process and transmit Customer Data only as needed to provide, secure and support the Service and as described in our Privacy Policy.',
      'You are responsible for the legality, accuracy and quality of Customer Data and for obtaining all rights and consents needed to process it with the Service. You must not upload data subject to special regulatory regimes (such as protected health information or payment card data) unless we have agreed in writing to the additional terms that apply to it.',
    ],
  },
  {
    heading: 'Acceptable use',
    paragraphs: ['You will not, and will not allow anyone else to:'],
    items: [
      'use the Service in breach of any law or regulation, or to infringe or misappropriate the rights of others;',
      'probe, scan or test the vulnerability of the Service, or bypass its security, authentication or usage limits;',
      'use the Service to mine cryptocurrency, send unsolicited messages, or host or distribute malicious code;',
      'reverse engineer, decompile or copy the Service, except to the extent the law expressly permits despite this restriction;',
      'resell, sublicense or provide the Service to third parties as a managed service without our written consent;',
      "interfere with or disrupt the integrity or performance of the Service or of other customers' use of it.",
    ],
  },
  {
    heading: 'Suspension',
    paragraphs: [
      'We may suspend all or part of the Service, including by stopping running clusters, if: (a) an amount is overdue or a Subscription balance is below the overdue limit; (b) you or your Authorized Users breach section 7 or otherwise materially breach these Terms; (c) a free trial has ended and no payment method or Funds have been provided; or (d) we reasonably believe suspension is needed to prevent a security threat to the Service, to you or to other customers.',
      'We will give notice before or promptly after a suspension where practicable, limit it to what is reasonably necessary, and restore the Service once the cause has been resolved. Fees for storage continue to accrue during a suspension.',
    ],
  },
  {
    heading: 'Security and confidentiality',
    paragraphs: [
      'We maintain administrative, physical and technical safeguards designed to protect Customer Data against unauthorized access, loss or alteration, including encryption in transit, access controls and approval of sensitive administrative actions by a second person.',
      "Each party will protect the other's confidential information with at least reasonable care, use it only to perform under these Terms, and disclose it only to personnel and advisers who need to know it and are bound by similar obligations, or as required by law after giving the other party notice where lawful.",
    ],
  },
  {
    heading: 'Intellectual property and feedback',
    paragraphs: [
      'Kumo and its licensors own all rights in the Service, the Documentation and all improvements to them. Except for the limited rights expressly granted in these Terms, no rights are granted to you. You may use the Service only during the term and only for your internal business purposes.',
      'If you give us suggestions or feedback about the Service, we may use them without restriction or obligation to you.',
    ],
  },
  {
    heading: 'Third-party services',
    paragraphs: [
      'Clusters run on infrastructure provided by third-party cloud providers, and card payments are processed by a third-party payment processor. Your use of those services through the Service is also subject to their terms. Kumo is not responsible for services that third parties provide directly to you, including any identity provider you connect for single sign-on.',
    ],
  },
  {
    heading: 'Term and termination',
    paragraphs: [
      "These Terms apply from the day you accept them until your Account is closed. You may close your Account at any time by deleting your clusters and contacting support. We may terminate these Terms on 30 days' written notice, or immediately if you materially breach them and do not cure the breach within 30 days of notice, or if you become insolvent.",
      'On termination, your right to use the Service ends. For 30 days after termination (the "transition period") we will, on request, allow you to retrieve your Customer Data; after the transition period we will delete Customer Data and the resources of your clusters, except where the law requires us to keep it. Sections 5 (as to amounts owed), 6, 9, 10 and 14 to 18 survive termination.',
    ],
  },
  {
    heading: 'Warranties and disclaimer',
    paragraphs: [
      'Kumo warrants that the Service will perform materially in accordance with the Documentation. To make a claim under this warranty, you must notify us in writing within 30 days of first becoming aware of the deficiency, describing it in enough detail for us to reproduce it. Your exclusive remedy, and our entire liability, is that we will use reasonable efforts to correct the deficiency or, if we cannot do so within a reasonable time, you may terminate the affected Subscription and receive a credit of the prepaid Funds that remain unused in it.',
      'EXCEPT AS EXPRESSLY STATED IN THESE TERMS, THE SERVICE IS PROVIDED "AS IS" AND KUMO DISCLAIMS ALL OTHER WARRANTIES, EXPRESS OR IMPLIED, INCLUDING WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE, TITLE AND NON-INFRINGEMENT, AND ANY WARRANTY THAT THE SERVICE WILL BE UNINTERRUPTED OR ERROR-FREE. FREE TRIALS AND PREVIEW FEATURES ARE PROVIDED WITHOUT ANY WARRANTY.',
    ],
  },
  {
    heading: 'Indemnification',
    paragraphs: [
      "Kumo will defend you against any third-party claim alleging that the Service, as provided by us, infringes that party's intellectual property rights, and will pay the damages finally awarded. You will defend Kumo against any third-party claim arising from your Customer Data or from your use of the Service in breach of section 7, and will pay the damages finally awarded. The indemnified party must give prompt notice of the claim, sole control of its defence to the indemnifying party, and reasonable assistance.",
    ],
  },
  {
    heading: 'Limitation of liability',
    paragraphs: [
      'TO THE EXTENT PERMITTED BY LAW, NEITHER PARTY WILL BE LIABLE FOR ANY INDIRECT, INCIDENTAL, SPECIAL, CONSEQUENTIAL OR PUNITIVE DAMAGES, OR FOR LOSS OF PROFITS, REVENUE, GOODWILL OR DATA, HOWEVER CAUSED, EVEN IF ADVISED OF THEIR POSSIBILITY.',
      "TO THE EXTENT PERMITTED BY LAW, EACH PARTY'S TOTAL LIABILITY ARISING OUT OF OR RELATING TO THESE TERMS IS LIMITED TO THE AMOUNTS YOU PAID TO KUMO FOR THE SERVICE IN THE 12 MONTHS BEFORE THE EVENT GIVING RISE TO THE LIABILITY. THIS LIMIT DOES NOT APPLY TO YOUR PAYMENT OBLIGATIONS, TO EITHER PARTY'S INDEMNIFICATION OBLIGATIONS, OR TO LIABILITY THAT CANNOT BE LIMITED BY LAW.",
    ],
  },
  {
    heading: 'Dispute resolution',
    paragraphs: [
      'Before starting any legal proceedings, a party must give the other written notice of the dispute. Within 30 days of that notice, representatives of both parties with authority to settle will meet, in person or by video conference, and negotiate in good faith to resolve it. If the dispute is not resolved within 30 days after that meeting, either party may pursue the remedies available to it. Nothing in this section prevents a party from seeking urgent injunctive relief.',
      'These Terms are governed by the laws of the State of Delaware, United States, without regard to its conflict-of-laws rules, and the state and federal courts located in Delaware have exclusive jurisdiction over any proceedings.',
    ],
  },
  {
    heading: 'Changes to these Terms',
    paragraphs: [
      'We may update these Terms from time to time. We will post the updated Terms in the portal with a new "last updated" date and, for material changes, notify the Account Owner by e-mail at least 30 days before they take effect. Your continued use of the Service after the effective date means you accept the updated Terms.',
    ],
  },
  {
    heading: 'General',
    paragraphs: [
      "These Terms are the entire agreement between the parties about the Service and supersede any prior agreements on that subject. If any provision is held unenforceable, the rest remains in effect. A failure to enforce a provision is not a waiver. Neither party may assign these Terms without the other's consent, except to a successor of its business. Neither party is liable for delays caused by events beyond its reasonable control, other than payment obligations.",
      'Questions about these Terms may be sent to legal@kumo.cloud or to Kumo Cloud, Inc., Legal Department.',
    ],
  },
];
