import { Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate, type Location } from 'react-router';
import { Anchor, Center, Loader, Text } from '@mantine/core';
import { lazyChunk } from '../../../lib/load-chunk';
import { getSession } from '../../../lib/session';
import type { SignedIn } from '../api/authenticate';
import { landingPath } from '../landing-path';
import type { SignInIdentity, SignInMode } from '../sign-in-mode';
import { EmailStep } from './email-step';
import { RouteMessageBanner } from './route-message-banner';
import { SignInLayout } from './sign-in-layout';
import { SingleSignOnButton } from './single-sign-on-button';

// The e-mail step is part of /login's first download and checks with the contract's plain rule. The other steps'
// forms (react-hook-form and the contract's zod schemas) load on demand, so /login's first download stays within its
// budget (bundle-budget.test.ts); they bring the query cache with them (lib/api/query-layout.tsx), which the rest of
// the console shares.
const loadOtpStep = () => import('./otp-step').then((m) => m.OtpStep);
const loadQueryLayout = () => import('../../../lib/api/query-layout');
/** Fetches the code step and the query cache ahead of their use. */
const preloadOtpStep = () => void Promise.all([loadOtpStep(), loadQueryLayout()]);
/** A step's component inside the query cache's provider, both fetched together. */
function withQueries<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazyChunk(async () => {
    const [Step, { QueryLayout }] = await Promise.all([load(), loadQueryLayout()]);
    return {
      default: (props: P) => (
        <QueryLayout>
          <Step {...props} />
        </QueryLayout>
      ),
    };
  });
}
const OtpStep = withQueries(loadOtpStep);
// Sign-up only.
const SignUpDetails = withQueries(() => import('./sign-up-details').then((m) => m.SignUpDetails));

type Step = 'email' | 'details' | 'otp';

/** Runs once the browser has nothing more urgent to do (the first screen painted and its form fetched); returns a cancel. */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: 3_000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, 500);
  return () => clearTimeout(handle);
}

const HEADINGS: Record<SignInMode, { title: string; description: string }> = {
  login: { title: 'Log in to Kumo Cloud', description: 'We will e-mail you a one-time password.' },
  signup: { title: 'Create your account', description: 'Start with an e-mail and your name; no password needed.' },
  admin: { title: 'Admin login', description: 'Provider staff only. Use your work e-mail or single sign-on.' },
};

const OTP_HEADING = { title: 'Check your e-mail', description: 'Enter the one-time password to continue.' };

/** /login, /signup and /admin/login: e-mail (or sign-up details), then the one-time password. */
export function SignInScreen({ mode }: { mode: SignInMode }) {
  // Only a session that exists on arrival redirects; the one created here navigates with its own state.
  const [sessionOnArrival] = useState(getSession);
  const { user } = sessionOnArrival;
  if (sessionOnArrival.jwtToken && user) return <Navigate to={landingPath(user.role)} replace />;
  return <SignInFlow mode={mode} />;
}

function SignInFlow({ mode }: { mode: SignInMode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: Location } | null)?.from;
  const firstStep: Step = mode === 'signup' ? 'details' : 'email';
  const [step, setStep] = useState<Step>(firstStep);
  const [identity, setIdentity] = useState<SignInIdentity>({ email_id: '', user_name: '' });
  const [termsAccepted, setTermsAccepted] = useState(false);
  // The code step is fetched while the first step is filled in, so moving on does not wait for it: from the first
  // touch of the e-mail form on the login screens (nothing more runs on their first screen), once the browser is idle
  // on the sign-up screen, whose details form loads its libraries anyway.
  useEffect(() => (mode === 'signup' ? whenIdle(preloadOtpStep) : undefined), [mode]);

  const toOtp = (next: SignInIdentity) => {
    setIdentity(next);
    setStep('otp');
  };

  const onSignedIn = ({ user, signUp }: SignedIn) => {
    const target = landingPath(user.role, from && `${from.pathname}${from.search}`);
    void navigate(target, { replace: true, state: { sign_up: signUp } });
  };

  const heading = step === 'otp' ? OTP_HEADING : HEADINGS[mode];

  return (
    <SignInLayout title={heading.title} description={heading.description} showFooter={mode !== 'signup'}>
      <RouteMessageBanner />
      {step === 'email' && (
        <>
          <EmailStep
            defaultEmail={identity.email_id}
            linkMode={mode === 'admin' ? 'admin' : 'customer'}
            onOtpSent={(email_id) => toOtp({ email_id, user_name: '' })}
            onFirstInteraction={preloadOtpStep}
          />
          {mode === 'admin' ? <SingleSignOnButton /> : <SwitchLink to="/signup" question="New to Kumo Cloud?" action="Sign up" />}
        </>
      )}
      {step === 'details' && (
        <>
          <StepLoader label="Loading the sign-up form" minHeight={320}>
            <SignUpDetails defaults={identity} termsAccepted={termsAccepted} onTermsAcceptedChange={setTermsAccepted} onOtpSent={toOtp} />
          </StepLoader>
          <SwitchLink to="/login" question="Already have an account?" action="Log in" />
        </>
      )}
      {step === 'otp' && (
        <StepLoader label="Loading the code step" minHeight={360}>
          <OtpStep mode={mode} identity={identity} onBack={() => setStep(firstStep)} onSignedIn={onSignedIn} />
        </StepLoader>
      )}
    </SignInLayout>
  );
}

/** A step's place, held at about its height while its form arrives. */
function StepLoader({ label, minHeight, children }: { label: string; minHeight: number; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center mih={minHeight}>
          <Loader aria-label={label} />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}

function SwitchLink({ to, question, action }: { to: string; question: string; action: ReactNode }) {
  return (
    <Text ta="center" fz="sm" c="dimmed" mt="xl">
      {question}{' '}
      <Anchor component={Link} to={to} fw={600}>
        {action}
      </Anchor>
    </Text>
  );
}
