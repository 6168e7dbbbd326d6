import type { Node } from '@cloud/sdk/browser';
import { StateBadge } from './NodeState';

/**
 * A pool's members to choose among `nodes` (your nodes of its chain): a checkbox per node, by its
 * name (or id) and state. `chosen` is the set checked; `onChange` gets the next one.
 */
export function MemberChoices({
  idPrefix,
  nodes,
  chosen,
  onChange,
}: {
  idPrefix: string;
  nodes: readonly Node[];
  chosen: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
}) {
  const toggle = (nodeId: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(nodeId);
    else next.delete(nodeId);
    onChange(next);
  };
  return nodes.map((node) => (
    <div className="check" key={node.id}>
      <input id={`${idPrefix}-${node.id}`} type="checkbox" checked={chosen.has(node.id)} onChange={(event) => toggle(node.id, event.target.checked)} />
      <label htmlFor={`${idPrefix}-${node.id}`}>
        {node.name ?? <span className="mono">{node.id}</span>} <StateBadge state={node.state} />
      </label>
    </div>
  ));
}
