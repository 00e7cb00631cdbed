/**
 * /machines: the machines assigned to the user (GET /libraries/machines), each with its quote
 * configuration opened in place (machine-quote.tsx).
 */
import "../equipment.css";
import { useEffect, useState } from "preact/hooks";
import { listMachines, type Machine } from "../../api/machines.ts";
import { FormError } from "../../components/errors.tsx";
import { usePageTitle } from "../../components/page-title.ts";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { useI18n } from "../../i18n/index.ts";
import { MachineQuotePanel } from "./machine-quote.tsx";

function MachineCard({ machine }: { machine: Machine }) {
  const t = useEquipmentTexts().machines;
  const { formatNumber, formatMoney } = useI18n();
  const [open, setOpen] = useState(false);
  const travel = machine.travel_mm.map((axis) => formatNumber(axis)).join(" × ");
  const panel = `machine-${machine.product_id}`;
  return (
    <li class="card machine">
      <div class="card-head">
        <h2>
          {machine.name} <code class="small muted">{machine.product_id}</code>
        </h2>
        <button type="button" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
          {open ? t.hide : t.configure}
        </button>
      </div>
      <dl class="facts small">
        <div>
          <dt>{t.control}</dt>
          <dd>{machine.control}</dd>
        </div>
        <div>
          <dt>{t.travel}</dt>
          <dd>{travel} mm</dd>
        </div>
        <div>
          <dt>{t.spindle}</dt>
          <dd>{formatNumber(machine.max_spindle_rpm)} min⁻¹</dd>
        </div>
        <div>
          <dt>{t.slots}</dt>
          <dd>{formatNumber(machine.tool_slots)}</dd>
        </div>
        <div>
          <dt>{t.catalogueRate}</dt>
          <dd>{formatMoney(machine.default_mhr, "EUR")} /h</dd>
        </div>
      </dl>
      <div id={panel}>{open ? <MachineQuotePanel productId={machine.product_id} /> : null}</div>
    </li>
  );
}

export function MachinesPage() {
  const t = useEquipmentTexts().machines;
  const { t: common } = useI18n();
  usePageTitle(t.title);
  const [machines, setMachines] = useState<Machine[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    listMachines().then((list) => setMachines(list.items), setError);
  }, []);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t.title}</h1>
      <p class="lead">{t.lead}</p>
      <FormError error={error} />
      {machines === null ? (
        error ? null : (
          <p class="muted">{common.loading}</p>
        )
      ) : machines.length === 0 ? (
        <p class="muted">{t.none}</p>
      ) : (
        <ul class="machines">
          {machines.map((machine) => (
            <MachineCard key={machine.product_id} machine={machine} />
          ))}
        </ul>
      )}
    </section>
  );
}
