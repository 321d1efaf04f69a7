import { DecisionDetails } from '../components/DecisionsPanel';
import { useTitle } from '../title';

/** A recorded decision at its own address, for the audit log's `executed` events to link to. */
export default function DecisionPage({ id }: { id: string }) {
  useTitle('Decision');
  return (
    <div className="page">
      <div className="page-head">
        <h1>Decision</h1>
        <code className="muted">{id}</code>
      </div>
      <section className="panel">
        <DecisionDetails id={id} page />
      </section>
    </div>
  );
}
