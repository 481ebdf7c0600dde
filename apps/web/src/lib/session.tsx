import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { Session } from '@sutura/domain/auth';
import { DEFAULT_PREFERENCES } from '@sutura/domain/preference-values';
import type { Preferences } from '@sutura/domain/preferences';
import { api, forgetStoredToken, setUnauthorizedHandler } from '@/lib/http';
import { setLanguage } from '@/lib/i18n';
import { queryClient } from '@/lib/query';

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

export interface SessionContextValue {
  status: SessionStatus;
  session: Session | null;
  /** True from the start of a sign-out until it has finished. */
  signingOut: boolean;
  signIn(session: Session): void;
  signOut(): Promise<void>;
  updatePreferences(p: Partial<Preferences>): Promise<void>;
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

let firstExchange: Promise<Session> | undefined;

/**
 * Whether the browser holds a session cookie, told by its readable companion (the session cookie
 * itself is httpOnly): without it the exchange is not asked, and a signed-out page load makes no
 * request that can only fail (docs/security.md).
 */
export function hasSessionCookie(): boolean {
  return /(?:^|;\s*)(?:__Host-)?sutura_signed_in=1(?:;|$)/.test(document.cookie);
}

/** The companion of a session the server no longer accepts (revoked, expired) goes with it. */
function forgetSessionCookie(): void {
  document.cookie = 'sutura_signed_in=; Path=/; Max-Age=0; SameSite=Strict';
  document.cookie = '__Host-sutura_signed_in=; Path=/; Max-Age=0; SameSite=Strict; Secure';
}

class SignedOut extends Error {}

/** The current session for the cookie, or a refusal without asking when there is none. */
function exchangeSession(): Promise<Session> {
  return hasSessionCookie() ? api<Session>('GET', '/auth') : Promise.reject(new SignedOut('no session cookie'));
}

/**
 * Starts the exchange of the session cookie (below) as the app starts, alongside the first page's
 * code: every first screen waits for its answer (the sign-in page too, to send a signed-in person
 * on), so it should not wait for the first draw to be asked.
 */
export function startSessionExchange(): void {
  forgetStoredToken();
  firstExchange = exchangeSession();
  // Its failure (no session) is read by the provider, which may mount after it.
  firstExchange.catch(() => undefined);
}

function applyLanguagePreference(preferences: Preferences): void {
  if (preferences.langCode !== 'auto') void setLanguage(preferences.langCode);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  // The session cookie cannot be read from here: the server says whether there is one.
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [session, setSession] = useState<Session | null>(null);
  const [signingOut, setSigningOut] = useState(false);
  // Bumped by every sign-out, so a session fetch started before it cannot sign the person back in.
  const epoch = useRef(0);

  const accept = useCallback((next: Session) => {
    setSession(next);
    setStatus('signedIn');
    applyLanguagePreference(next.preferences);
  }, []);

  const endLocally = useCallback(() => {
    forgetSessionCookie();
    setSession(null);
    setStatus('signedOut');
    queryClient.clear();
  }, []);

  // SPEC §4: the session cookie is exchanged for the current session and a refreshed token (in the
  // cookie). Kept in a ref so strict mode's second effect run does not send the old token twice.
  const bootstrap = useRef<Promise<Session> | null>(null);
  useEffect(() => {
    forgetStoredToken();
    let cancelled = false;
    const started = epoch.current;
    if (!bootstrap.current) {
      bootstrap.current = firstExchange ?? exchangeSession();
      firstExchange = undefined;
    }
    bootstrap.current
      .then((next) => {
        if (!cancelled && started === epoch.current) accept(next);
      })
      .catch(() => {
        if (cancelled || started !== epoch.current) return;
        // Nobody was signed in on this page yet: the cache holds the signed-out page's own reads
        // (the sign-in page's providers, asked with its first draw), which clearing it would leave
        // waiting forever. Only the cookie's companion goes.
        forgetSessionCookie();
        setSession(null);
        setStatus('signedOut');
      });
    return () => {
      cancelled = true;
    };
  }, [accept]);

  const signedIn = status === 'signedIn';
  useEffect(() => {
    setUnauthorizedHandler(() => {
      endLocally();
      if (signedIn) void navigate('/auth/login', { replace: true });
    });
    return () => setUnauthorizedHandler(undefined);
  }, [endLocally, navigate, signedIn]);

  const signOut = useCallback(async () => {
    epoch.current += 1;
    setSigningOut(true);
    let endSessionUrl: string | undefined;
    try {
      endSessionUrl = (await api<{ endSessionUrl?: string }>('DELETE', '/auth').catch(() => undefined))?.endSessionUrl;
    } finally {
      endLocally();
      setSigningOut(false);
      // Signed in through a provider that offers it: its session ends too (it comes back to the sign-in page).
      if (endSessionUrl) window.location.assign(endSessionUrl);
      else await navigate('/auth/login', { replace: true });
    }
  }, [endLocally, navigate]);

  const updatePreferences = useCallback(
    async (changes: Partial<Preferences>) => {
      const current = session;
      if (!current) return;
      const preferences = { ...DEFAULT_PREFERENCES, ...current.preferences, ...changes };
      // Drawn at once; put back if the server refuses.
      setSession((s) => (s ? { ...s, preferences } : s));
      try {
        const saved = await api<{ preferences: Preferences }>('PUT', '/users/preferences', { body: preferences });
        setSession((s) => (s ? { ...s, preferences: saved.preferences } : s));
        applyLanguagePreference(saved.preferences);
        await queryClient.invalidateQueries();
      } catch (error) {
        setSession((s) => (s ? { ...s, preferences: current.preferences } : s));
        throw error;
      }
    },
    [session],
  );

  const refresh = useCallback(async () => {
    const next = await api<Session>('GET', '/auth');
    accept(next);
  }, [accept]);

  const value = useMemo<SessionContextValue>(
    () => ({ status, session, signingOut, signIn: accept, signOut, updatePreferences, refresh }),
    [status, session, signingOut, accept, signOut, updatePreferences, refresh],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside SessionProvider');
  return value;
}
