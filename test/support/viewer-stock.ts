/**
 * The web app's viewer modules (pure: no DOM, no fetch) for the server's tests, which check them
 * against the app routes' real answers: a server module may not import the browser's source,
 * test support may.
 */
export { classCounts, decodeStockField, STOCK_CLASSES, type StockField } from "../../web/src/api/viewer-stock.ts";
export { STOCK_COLOURS, STOCK_SIDE, stockMesh } from "../../web/src/viewer/stock-mesh.ts";
export {
  FAMILY_COLOURS,
  FEATURE_FAMILIES,
  featureFamily,
  featuresByFace,
  HIGHLIGHT,
  PART_GREY,
  partColours,
} from "../../web/src/viewer/feature-colours.ts";
