/** The signed-in user as the pages see it: null when signed out. */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Session } from "./api/app-routes.ts";

export interface SessionState {
  session: Session | null;
  /** after sign-in (a session) or sign-out (null) */
  setSession(session: Session | null): void;
}

export const SessionContext = createContext<SessionState>({ session: null, setSession: () => undefined });

export function useSession(): SessionState {
  return useContext(SessionContext);
}
