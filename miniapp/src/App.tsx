import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Layout } from './components/Layout.tsx';
import { SessionProvider } from './session/SessionProvider.tsx';

// Route-level code splitting: the first screen loads only its own chunk (DESIGN section 6).
const Landing = lazy(() => import('./screens/Landing/LandingScreen.tsx'));
const Login = lazy(() => import('./screens/Auth/LoginScreen.tsx'));
const Register = lazy(() => import('./screens/Auth/RegisterScreen.tsx'));
const Logout = lazy(() => import('./screens/Auth/LogoutScreen.tsx'));
const Verify = lazy(() => import('./screens/Auth/VerifyScreen.tsx'));
const Token = lazy(() => import('./screens/Auth/TokenScreen.tsx'));
const TelegramEntry = lazy(() => import('./screens/Auth/TelegramScreen.tsx'));
const Menu = lazy(() => import('./screens/Menu/MenuScreen.tsx'));
const Subscription = lazy(() => import('./screens/Premium/SubscriptionScreen.tsx'));
const PaymentResult = lazy(() => import('./screens/Premium/PaymentResultScreen.tsx'));
const Offer = lazy(() => import('./screens/Documents/OfferScreen.tsx'));
const PrivacyPolicy = lazy(() => import('./screens/Documents/PrivacyPolicyScreen.tsx'));
const Placeholder = lazy(() => import('./screens/Placeholder/PlaceholderScreen.tsx'));
const NotFound = lazy(() => import('./screens/Placeholder/NotFoundScreen.tsx'));

// Declarative routes (the smallest react-router mode: no data APIs needed, the screens load their own data).
// Paths are case-insensitive by default: /Menu and /menu are one route (the spec uses both).
export function App() {
  return (
    <SessionProvider>
      <BrowserRouter>
        <Routes>
          <Route element={<Layout />}>
            <Route path="/" element={<Landing />} />
            <Route path="/login" element={<Login />} />
            <Route path="/register" element={<Register />} />
            <Route path="/logout" element={<Logout />} />
            <Route path="/verify" element={<Verify />} />
            <Route path="/token" element={<Token />} />
            <Route path="/telegram" element={<TelegramEntry />} />
            <Route path="/Menu" element={<Menu />} />
            <Route path="/subscription" element={<Subscription />} />
            <Route path="/confirm" element={<PaymentResult outcome="success" />} />
            <Route path="/fail" element={<PaymentResult outcome="failure" />} />
            <Route path="/offer" element={<Offer />} />
            <Route path="/privacy-policy" element={<PrivacyPolicy />} />
            {/* Screens of later issues: an honest placeholder until their API exists. */}
            <Route path="/search" element={<Placeholder area="search" />} />
            <Route path="/CreateProfile" element={<Placeholder area="createProfile" />} />
            <Route path="/training" element={<Placeholder area="training" />} />
            <Route path="/matches" element={<Placeholder area="matches" />} />
            <Route path="/WhoLike" element={<Placeholder area="likes" />} />
            <Route path="/ChatList" element={<Placeholder area="chats" />} />
            <Route path="/profile" element={<Placeholder area="profile" />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </SessionProvider>
  );
}
