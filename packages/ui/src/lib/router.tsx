import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';

/**
 * A small history router: the path is the page, the query string its parameters (`?topic=…`);
 * links push state, Back/Forward work.
 */
const RouterContext = createContext<{ path: string; search: string; navigate: (to: string) => void }>({
  path: '/',
  search: '',
  navigate: () => {},
});

export function Router({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(() => ({ path: window.location.pathname, search: window.location.search }));
  useEffect(() => {
    const onPop = () => setLocation({ path: window.location.pathname, search: window.location.search });
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: string) => {
    if (to !== window.location.pathname + window.location.search) window.history.pushState(null, '', to);
    const q = to.indexOf('?');
    setLocation({ path: q < 0 ? to : to.slice(0, q), search: q < 0 ? '' : to.slice(q) });
  }, []);
  return <RouterContext.Provider value={{ ...location, navigate }}>{children}</RouterContext.Provider>;
}

export function useRouter() {
  return useContext(RouterContext);
}
