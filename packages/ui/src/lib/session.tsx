import { SessionExpiredError } from '@weir/client';
import type { User } from '@weir/contract';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api } from './api.ts';

type Phase = 'loading' | 'init' | 'login' | 'ready' | 'unreachable';

interface Session {
  phase: Phase;
  user: User | undefined;
  isAdmin: boolean;
  error: string | undefined;
  login(username: string, password: string): Promise<void>;
  logout(): Promise<void>;
  initialized(): void;
  /** Reads the signed-in user again (after a change of their own profile). */
  reloadUser(): Promise<void>;
}

const SessionContext = createContext<Session | undefined>(undefined);

/**
 * First run, login, silent refresh and logout. On load: `GET /api/init` (false → the init form),
 * then a cookie refresh (a reload keeps the session), else the login form.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [phase, setPhase] = useState<Phase>('loading');
  const [user, setUser] = useState<User>();
  const [error, setError] = useState<string>();

  const start = useCallback(async () => {
    try {
      const { initialized } = await api.initStatus();
      if (!initialized) return setPhase('init');
    } catch (err) {
      setError((err as Error).message);
      return setPhase('unreachable');
    }
    try {
      await api.refresh();
      setUser(await api.me());
      setPhase('ready');
    } catch (err) {
      if (!(err instanceof SessionExpiredError)) setError((err as Error).message);
      setPhase('login');
    }
  }, []);

  useEffect(() => {
    void start();
  }, [start]);

  const value: Session = {
    phase,
    user,
    isAdmin: user?.roles.some((r) => r.name === 'admin') ?? false,
    error,
    async login(username, password) {
      await api.login(username, password);
      setUser(await api.me());
      setError(undefined);
      setPhase('ready');
    },
    async logout() {
      await api.logout();
      setUser(undefined);
      setPhase('login');
    },
    initialized() {
      setPhase('login');
    },
    async reloadUser() {
      setUser(await api.me());
    },
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
