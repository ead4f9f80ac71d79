import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/**
 * The attached image at full size (docs/product.md, Screens: the table's thumbnail opens a full preview, the detail's
 * image a zoom dialog). Clicking the image switches between fitting the window and its own size.
 */
export function ImagePreviewDialog({ src, onHide }: { src: string | null; onHide: () => void }) {
  const [actualSize, setActualSize] = useState(false);
  return (
    <Modal
      show={src !== null}
      onHide={onHide}
      onExited={() => setActualSize(false)}
      size="xl"
      centered
      className="image-preview-modal"
      backdropClassName="image-preview-backdrop"
    >
      <Modal.Header closeButton closeLabel="Закрыть">
        <Modal.Title as="h2" className="h5">
          Изображение
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className={`image-preview-body ${actualSize ? 'actual-size' : ''}`}>
        {src && (
          <button
            type="button"
            className="image-preview-toggle"
            title={actualSize ? 'Уменьшить' : 'Увеличить'}
            onClick={() => setActualSize((value) => !value)}
          >
            <img src={src} alt="Изображение из сообщения" />
          </button>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={() => setActualSize((value) => !value)}>
          {actualSize ? 'Уменьшить' : 'Увеличить'}
        </Button>
        <Button variant="outline-secondary" onClick={onHide}>
          Закрыть
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
