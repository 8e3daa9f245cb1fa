import { splitCodeSpans } from './connection-view';

/** Our own message with `backticked` commands shown as code (splitCodeSpans); text otherwise. */
export function CodeSpans({ text }: { readonly text: string }) {
  return (
    <>
      {splitCodeSpans(text).map((piece, index) =>
        piece.code ? <code key={index}>{piece.text}</code> : piece.text,
      )}
    </>
  );
}
