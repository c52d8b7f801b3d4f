import { useRouter } from './router.tsx';

/**
 * The resource a page's path names (`/tasks/42` → `'42'`, decoded; `undefined` on the list path
 * `/tasks`), and `close`, which goes back to the list path. The palette links to these paths.
 */
export function usePathId(base: string): { id: string | undefined; close: () => void } {
  const { path, navigate } = useRouter();
  const rest = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : '';
  let id: string | undefined;
  if (rest) {
    try {
      id = decodeURIComponent(rest);
    } catch {
      id = rest;
    }
  }
  return { id, close: () => navigate(base) };
}
