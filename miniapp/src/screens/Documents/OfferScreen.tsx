import { DocumentFrame } from '../../components/DocumentFrame.tsx';

export default function OfferScreen() {
  return <DocumentFrame src="/offer.html" titleKey="app.footer.offer" />;
}
