import { isValidElement } from 'react';
import { BrowserRouter, createRoutesFromElements, matchRoutes, Route, useRoutes } from 'react-router';
import { AppErrorBoundary } from './components/ErrorBoundary.tsx';
import { Layout, type ScreenFrame } from './components/Layout.tsx';
import { lazyScreen } from './components/lazyScreen.ts';
import { RequireMember, RequireProfile, RequireVerified } from './session/RouteGuards.tsx';
import { SessionProvider } from './session/SessionProvider.tsx';
import { HomeRoute, WebOnly } from './session/TelegramRoutes.tsx';

// Route-level code splitting: the first screen loads only its own chunk (DESIGN section 6).
// The sign-in forms (like the landing) read nothing through the query cache: no TanStack Query on /login.
const Login = lazyScreen(() => import('./screens/Auth/LoginScreen.tsx'), { queries: false });
const Register = lazyScreen(() => import('./screens/Auth/RegisterScreen.tsx'), { queries: false });
const Logout = lazyScreen(() => import('./screens/Auth/LogoutScreen.tsx'));
const Verify = lazyScreen(() => import('./screens/Auth/VerifyScreen.tsx'));
const ForgotPassword = lazyScreen(() => import('./screens/Auth/ForgotPasswordScreen.tsx'));
const Token = lazyScreen(() => import('./screens/Auth/TokenScreen.tsx'));
const TelegramEntry = lazyScreen(() => import('./screens/Auth/TelegramScreen.tsx'));
const Menu = lazyScreen(() => import('./screens/Menu/MenuScreen.tsx'));
const Account = lazyScreen(() => import('./screens/Menu/AccountScreen.tsx'));
const Subscription = lazyScreen(() => import('./screens/Premium/SubscriptionScreen.tsx'));
const PaymentResult = lazyScreen(() => import('./screens/Premium/PaymentResultScreen.tsx'));
const SuccessCheck = lazyScreen<object>(() =>
  import('./screens/Premium/PaymentResultScreen.tsx').then((m) => ({ default: m.SuccessCheckScreen })),
);
const Offer = lazyScreen(() => import('./screens/Documents/OfferScreen.tsx'));
const PrivacyPolicy = lazyScreen(() => import('./screens/Documents/PrivacyPolicyScreen.tsx'));
const ChatList = lazyScreen(() => import('./screens/Chat/ChatListScreen.tsx'));
const Chat = lazyScreen(() => import('./screens/Chat/ChatScreen.tsx'));
const Matches = lazyScreen(() => import('./screens/Matches/MatchesScreen.tsx'));
const Likers = lazyScreen(() => import('./screens/Matches/LikersScreen.tsx'));
const MatchProfile = lazyScreen(() => import('./screens/Matches/MatchProfileScreen.tsx'));
const LikerProfile = lazyScreen(() => import('./screens/Matches/LikerProfileScreen.tsx'));
// The deck's first card reads nothing through the cache either (issue 41): its calls are plain, and the
// cache comes once the page has settled (components/Layout.tsx), with the live connection.
const Search = lazyScreen(() => import('./screens/Search/SearchScreen.tsx'), { queries: false });
const CreateProfile = lazyScreen(() => import('./screens/Profile/CreateProfile/CreateProfileScreen.tsx'));
const Training = lazyScreen(() => import('./screens/Training/TrainingScreen.tsx'));
const EditPhotos = lazyScreen(() => import('./screens/Profile/EditPhotosScreen.tsx'));
const OwnProfile = lazyScreen(() => import('./screens/Profile/OwnProfileScreen.tsx'));
const EditProfile = lazyScreen(() => import('./screens/Profile/EditProfileScreen.tsx'));
const Verification = lazyScreen(() => import('./screens/Verification/VerificationScreen.tsx'));
const NotFound = lazyScreen(() => import('./screens/Placeholder/NotFoundScreen.tsx'));
// The moderation console: its own chunk, loaded only when an admin opens /admin (issue 40).
const Admin = lazyScreen(() => import('./screens/Admin/AdminScreen.tsx'));

const topLevel: ScreenFrame = { topLevel: true };
const deck: ScreenFrame = { topLevel: true, fill: true };
const framed: ScreenFrame = { look: 'framed' };
const chat: ScreenFrame = { look: 'chat' };
const members: ScreenFrame = { members: true };

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

      <Route element={<RequireMember />} handle={members}>
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

/** The frame of the screen at `pathname`: the matched routes' `handle`s, the deepest's winning. */
function frameAt(pathname: string): ScreenFrame {
  const handles = (matchRoutes(routes, pathname) ?? []).map((match) => match.route.handle as ScreenFrame | undefined);
  return Object.assign({}, ...handles) as ScreenFrame;
}

/**
 * Loads the code of the screens the route table shows at `pathname` (the lazy screens and `/`'s landing),
 * so the first render draws the screen rather than a fallback (see lazyScreen.ts). Not awaited for ever by
 * the caller: a screen the session sends the visitor away from is only wasted bytes.
 */
export function preloadScreensAt(pathname: string): Promise<unknown> {
  const screens = (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
    const type: unknown = isValidElement(route.element) ? route.element.type : null;
    return typeof type === 'function' && 'preload' in type && typeof type.preload === 'function'
      ? [(type.preload as () => Promise<void>)()]
      : [];
  });
  return Promise.all(screens);
}

function AppRoutes() {
  return useRoutes(routes);
}

export function App() {
  return (
    <SessionProvider>
      <BrowserRouter>
        <AppErrorBoundary>
          <AppRoutes />
        </AppErrorBoundary>
      </BrowserRouter>
    </SessionProvider>
  );
}
