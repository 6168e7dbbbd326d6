import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout, PublicLayout } from './components/Layout';
import { useConsole } from './context';
import { EventsPage } from './pages/Events';
import { KeysPage } from './pages/Keys';
import { ForgotPasswordPage, LoginPage } from './pages/Login';
import { NodePage } from './pages/Node';
import { NodesPage } from './pages/Nodes';
import { PoolPage } from './pages/Pool';
import { PoolsPage } from './pages/Pools';
import { ProfilePage } from './pages/Profile';
import { ResetPasswordPage } from './pages/ResetPassword';
import { SignUpPage } from './pages/SignUp';
import { StreamPage } from './pages/Stream';
import { StreamsPage } from './pages/Streams';
import { ValidatorPage } from './pages/Validator';
import { ValidatorsPage } from './pages/Validators';
import { VerifyPage } from './pages/Verify';

// Client routes never start with /users, /auth, /chains, /staking, /openapi, /.well-known or
// /healthz: on the production gateway those paths go to the APIs, everything else to the console.

/** The logged-in screens; without a session, the login page (and back here after it). */
function RequireSession() {
  const { client } = useConsole();
  const location = useLocation();
  if (!client.currentSession()) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <Layout />;
}

export function App() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route path="/signup" element={<SignUpPage />} />
        <Route path="/verify" element={<VerifyPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
      </Route>
      <Route element={<RequireSession />}>
        <Route path="/nodes" element={<NodesPage />} />
        <Route path="/nodes/:id" element={<NodePage />} />
        <Route path="/pools" element={<PoolsPage />} />
        <Route path="/pools/:id" element={<PoolPage />} />
        <Route path="/streams" element={<StreamsPage />} />
        <Route path="/streams/:id" element={<StreamPage />} />
        <Route path="/validators" element={<ValidatorsPage />} />
        <Route path="/validators/:network/:nodeId" element={<ValidatorPage />} />
        <Route path="/keys" element={<KeysPage />} />
        <Route path="/events" element={<EventsPage />} />
        <Route path="/profile" element={<ProfilePage />} />
      </Route>
      <Route path="*" element={<Navigate to="/nodes" replace />} />
    </Routes>
  );
}
