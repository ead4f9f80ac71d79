/** A small image of a message; clicking it opens the full preview. */
export function MessageThumbnail({ src, onOpen, size = 48 }: { src: string; onOpen: () => void; size?: number }) {
  return (
    <button
      type="button"
      className="history-thumb"
      title="Открыть изображение"
      aria-label="Открыть изображение"
      onClick={onOpen}
    >
      <img src={src} alt="" width={size} height={size} loading="lazy" />
    </button>
  );
}
