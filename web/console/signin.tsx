// Sign-in for the ADM surface: an email code (the admin app's sign-in), or a password followed by the mailed
// two-factor code when the account has it on. Only an ADMIN stays signed in.
import { useState } from 'preact/hooks';
import { unwrap, type AuthTokens } from '../client';
import { t } from './i18n';
import { api, client, loadMe, sessionNotice } from './session';
import { errorText, Tabs } from './ui';
import { useSignal } from './state';

const DEVICE = 'Admin console';

export function SignIn() {
  const notice = useSignal(sessionNotice);
  const [mode, setMode] = useState<'code' | 'password'>('code');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'start' | 'code' | 'twoFa'>('start');
  const [twoFa, setTwoFa] = useState<{ token: string; destination: string } | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const finish = async (tokens: AuthTokens) => {
    client.signedIn(tokens);
    await loadMe();
  };

  const submit = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      if (mode === 'code' && step === 'start') {
        unwrap(await api.POST('/auth/email/otp/send', { body: { email, purpose: 'LOGIN' } }));
        setMessage(t('signin.codeSent', { email }));
        setStep('code');
      } else if (mode === 'code') {
        await finish(unwrap(await api.POST('/auth/email/otp/verify', { body: { email, code, purpose: 'LOGIN', surface: 'ADM', deviceName: DEVICE } })));
      } else if (step === 'start') {
        const answer = unwrap(await api.POST('/auth/login/password', { body: { email, password, surface: 'ADM', deviceName: DEVICE } }));
        if ('requiresTwoFa' in answer) {
          setTwoFa({ token: answer.twoFaToken, destination: answer.destination });
          setStep('twoFa');
        } else await finish(answer);
      } else {
        await finish(unwrap(await api.POST('/auth/login/password/2fa', { body: { twoFaToken: twoFa!.token, code, surface: 'ADM', deviceName: DEVICE } })));
      }
    });
  };

  return (
    <main class="signin">
      <form class="card" onSubmit={submit} data-testid="signin">
        <h1>{t('signin.title')}</h1>
        {notice && <p class="error">{notice === 'notAdmin' ? t('signin.notAdmin') : t('signin.ended')}</p>}
        <Tabs
          tabs={[
            { id: 'code', label: t('signin.byCode') },
            { id: 'password', label: t('signin.byPassword') },
          ]}
          current={mode}
          onChange={(id) => {
            setMode(id as 'code' | 'password');
            setStep('start');
            setCode('');
            setMessage(undefined);
          }}
        />
        <label>
          {t('signin.email')}
          <input
            name="email"
            type="email"
            autocomplete="username"
            required
            value={email}
            disabled={step !== 'start'}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        {mode === 'password' && step === 'start' && (
          <label>
            {t('signin.password')}
            <input
              name="password"
              type="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
        )}
        {message && <p class="muted">{message}</p>}
        {step === 'twoFa' && twoFa && <p class="muted">{t('signin.twoFa', { destination: twoFa.destination })}</p>}
        {step !== 'start' && (
          <label>
            {t('signin.code')}
            <input
              name="code"
              inputMode="numeric"
              autocomplete="one-time-code"
              pattern="\d{6}"
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </label>
        )}
        {error && (
          <p class="error" data-testid="signin-error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy} data-testid="signin-submit">
          {mode === 'code' && step === 'start' ? t('signin.sendCode') : t('signin.submit')}
        </button>
      </form>
    </main>
  );
}
