import { VisibleText } from './VisibleText';

/**
 * Name/value pairs as a config file wrote them (a local server's env, a remote server's headers):
 * every character visible, `${VAR}` unexpanded, with a note saying when it is filled in.
 */
export function ValuesAsWritten({
  pairs,
  empty,
  filledIn,
}: {
  readonly pairs: readonly (readonly [string, string])[];
  /** Shown when there are none: "(none set)". */
  readonly empty: string;
  /** When `${VAR}` is filled in: "at launch", "when connecting". */
  readonly filledIn: string;
}) {
  if (pairs.length === 0) return <span className="sy-muted">{empty}</span>;
  return (
    <>
      <table className="sy-env">
        <tbody>
          {pairs.map(([key, value], index) => (
            <tr key={index}>
              <th scope="row">
                <code>
                  <VisibleText text={key} edgeSpaces />
                </code>
              </th>
              <td>
                <code>
                  <VisibleText text={value} whitespace edgeSpaces />
                </code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <span className="sy-field-note">
        Values as written; ${'{VAR}'} is filled in {filledIn}.
      </span>
    </>
  );
}
