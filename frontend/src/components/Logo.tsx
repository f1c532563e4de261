import { MARK } from '../brand/mark';
import { firm } from '../content/site';

/**
 * The mark (rising bars with the 'streepje' ahead of them) and the name. The name is text,
 * so it stays sharp, searchable and takes the header's colour.
 */
export function Logo() {
  return (
    <span className="logo">
      <svg className="logo-mark" viewBox={`0 0 ${MARK.size} ${MARK.size}`} aria-hidden="true" focusable="false">
        <rect width={MARK.size} height={MARK.size} rx={MARK.tile.rx} fill={MARK.tile.fill} />
        {MARK.shapes.map((shape) => (
          <rect key={`${shape.x},${shape.y}`} {...shape} fill={MARK.shapeFill} />
        ))}
      </svg>
      <span className="logo-name">{firm.name}</span>
    </span>
  );
}
