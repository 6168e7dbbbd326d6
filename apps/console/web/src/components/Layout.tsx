import { useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useConsole } from '../context';

const SECTIONS = [
  { to: '/nodes', label: 'Nodes' },
  { to: '/pools', label: 'Pools' },
  { to: '/streams', label: 'Streams' },
  { to: '/validators', label: 'Validators' },
  { to: '/keys', label: 'Client keys' },
  { to: '/events', label: 'Events' },
  { to: '/profile', label: 'Profile' },
];

/** The frame of the logged-in screens: the sections, who is logged in, and log out. */
export function Layout() {
  const { client, endSession } = useConsole();
  const [leaving, setLeaving] = useState(false);
  const session = client.currentSession();
  const logout = async () => {
    setLeaving(true);
    // Deleting the session's client key revokes its tokens; when that fails (the login expired),
    // forgetting the session here is all there is left to do.
    await client.logout().catch(() => undefined);
    endSession('You are logged out.');
  };
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/nodes" className="brand">
          Cloud Nodes
        </Link>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.to}>
                <NavLink to={section.to}>{section.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span className="who-email">{session?.email}</span>
          <button type="button" onClick={() => void logout()} disabled={leaving}>
            Log out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

/** The frame of the screens for people not logged in (sign up, log in, verify, reset). */
export function PublicLayout() {
  return (
    <>
      <header className="top top-public">
        <span className="brand">Cloud Nodes</span>
      </header>
      <main id="main" className="narrow">
        <Outlet />
      </main>
    </>
  );
}
