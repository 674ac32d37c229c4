import { QueryClientProvider } from '@tanstack/react-query';
import { lazy } from 'react';
import { BrowserRouter, createRoutesFromElements, matchRoutes, Route, useRoutes } from 'react-router';
import { queryClient } from './api/queryClient.ts';
import { Layout, type ScreenFrame } from './components/Layout.tsx';
import { RequireMember, RequireProfile, RequireVerified } from './session/RouteGuards.tsx';
import { SessionProvider } from './session/SessionProvider.tsx';
import { HomeRoute, WebOnly } from './session/TelegramRoutes.tsx';

// Route-level code splitting: the first screen loads only its own chunk (DESIGN section 6).
const Login = lazy(() => import('./screens/Auth/LoginScreen.tsx'));
const Register = lazy(() => import('./screens/Auth/RegisterScreen.tsx'));
const Logout = lazy(() => import('./screens/Auth/LogoutScreen.tsx'));
const Verify = lazy(() => import('./screens/Auth/VerifyScreen.tsx'));
const ForgotPassword = lazy(() => import('./screens/Auth/ForgotPasswordScreen.tsx'));
const Token = lazy(() => import('./screens/Auth/TokenScreen.tsx'));
const TelegramEntry = lazy(() => import('./screens/Auth/TelegramScreen.tsx'));
const Menu = lazy(() => import('./screens/Menu/MenuScreen.tsx'));
const Account = lazy(() => import('./screens/Menu/AccountScreen.tsx'));
const Subscription = lazy(() => import('./screens/Premium/SubscriptionScreen.tsx'));
const PaymentResult = lazy(() => import('./screens/Premium/PaymentResultScreen.tsx'));
const SuccessCheck = lazy(() =>
  import('./screens/Premium/PaymentResultScreen.tsx').then((m) => ({ default: m.SuccessCheckScreen })),
);
const Offer = lazy(() => import('./screens/Documents/OfferScreen.tsx'));
const PrivacyPolicy = lazy(() => import('./screens/Documents/PrivacyPolicyScreen.tsx'));
const ChatList = lazy(() => import('./screens/Chat/ChatListScreen.tsx'));
const Chat = lazy(() => import('./screens/Chat/ChatScreen.tsx'));
const Matches = lazy(() => import('./screens/Matches/MatchesScreen.tsx'));
const Likers = lazy(() => import('./screens/Matches/LikersScreen.tsx'));
const MatchProfile = lazy(() => import('./screens/Matches/MatchProfileScreen.tsx'));
const LikerProfile = lazy(() => import('./screens/Matches/LikerProfileScreen.tsx'));
const Search = lazy(() => import('./screens/Search/SearchScreen.tsx'));
const CreateProfile = lazy(() => import('./screens/Profile/CreateProfile/CreateProfileScreen.tsx'));
const Training = lazy(() => import('./screens/Training/TrainingScreen.tsx'));
const EditPhotos = lazy(() => import('./screens/Profile/EditPhotosScreen.tsx'));
const OwnProfile = lazy(() => import('./screens/Profile/OwnProfileScreen.tsx'));
const EditProfile = lazy(() => import('./screens/Profile/EditProfileScreen.tsx'));
const Verification = lazy(() => import('./screens/Verification/VerificationScreen.tsx'));
const NotFound = lazy(() => import('./screens/Placeholder/NotFoundScreen.tsx'));
// The moderation console: its own chunk, loaded only when an admin opens /admin (issue 40).
const Admin = lazy(() => import('./screens/Admin/AdminScreen.tsx'));

const topLevel: ScreenFrame = { topLevel: true };
const deck: ScreenFrame = { topLevel: true, fill: true };
const framed: ScreenFrame = { look: 'framed' };
const chat: ScreenFrame = { look: 'chat' };

/**
 * The route table: each screen, its frame (`handle`), and the session rules it sits under (spec sections
 * 4 and 6). Declarative routes (the smallest react-router mode: no data APIs needed, the screens load
 * their own data). Paths are case-insensitive: /Menu and /menu are one route (the spec uses both).
 */
const routes = createRoutesFromElements(
  <Route element={<Layout frameAt={frameAt} />}>
    {/* Open to everyone, also before the e-mail address is verified. */}
    <Route path="/" element={<HomeRoute />} handle={topLevel} />
    <Route element={<WebOnly />}>
      <Route path="/verify" element={<Verify />} />
    </Route>
    <Route path="/logout" element={<Logout />} />
    <Route path="/offer" element={<Offer />} handle={framed} />
    <Route path="/privacy-policy" element={<PrivacyPolicy />} handle={framed} />
    <Route path="/confirm" element={<PaymentResult outcome="success" check />} />
    <Route path="/fail" element={<PaymentResult outcome="failure" check />} />
    {/* Spec section 2: outcome pages of their own; /successtrig is the menu's test link (it confirms only
        the caller's own paid payment). */}
    <Route path="/successtrig" element={<SuccessCheck />} />
    <Route path="/failtrig" element={<PaymentResult outcome="failure" />} />

    <Route element={<RequireVerified />}>
      <Route element={<WebOnly />}>
        <Route path="/login" element={<Login />} />
        <Route path="/register" element={<Register />} />
        <Route path="/forgot-password" element={<ForgotPassword />} />
        <Route path="/token" element={<Token />} />
      </Route>
      <Route path="/telegram" element={<TelegramEntry />} />

      <Route element={<RequireMember />}>
        <Route path="/Menu" element={<Menu />} />
        <Route path="/account" element={<Account />} />
        <Route path="/subscription" element={<Subscription />} />
        <Route path="/CreateProfile" element={<CreateProfile />} />
        <Route path="/admin" element={<Admin />} />

        <Route element={<RequireProfile />}>
          <Route path="/search" element={<Search />} handle={deck} />
          <Route path="/training" element={<Training />} />
          <Route path="/matches" element={<Matches />} />
          <Route path="/WhoLike" element={<Likers />} />
          <Route path="/UsersProfile/:id" element={<MatchProfile />} />
          {/* The spec spells it both ways; routes are case-insensitive, so one covers both. */}
          <Route path="/UsersProfileLiker/:id" element={<LikerProfile />} />
          <Route path="/ChatList" element={<ChatList />} />
          <Route path="/chat/:id" element={<Chat />} handle={chat} />
          <Route path="/profile" element={<OwnProfile />} />
          <Route path="/edit_profile" element={<EditProfile />} />
          {/* The spec names the photo chooser and cropper separately; here they are one screen. */}
          <Route path="/edit_photo" element={<EditPhotos />} />
          <Route path="/Foto" element={<EditPhotos />} />
          <Route path="/cropImage" element={<EditPhotos />} />
          {/* Issue 40: the selfie that verifies the own photos (not /verify, the e-mail code). */}
          <Route path="/verification" element={<Verification />} />
        </Route>
      </Route>

      <Route path="*" element={<NotFound />} />
    </Route>
  </Route>,
);

/** The frame of the screen at `pathname`: the deepest matched route's `handle`. */
function frameAt(pathname: string): ScreenFrame {
  const handle: unknown = matchRoutes(routes, pathname)?.at(-1)?.route.handle;
  return (handle as ScreenFrame | undefined) ?? {};
}

function AppRoutes() {
  return useRoutes(routes);
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </SessionProvider>
    </QueryClientProvider>
  );
}
