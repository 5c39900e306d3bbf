// The charts' library (Mantine's BarChart on Recharts) is most of the cost analysis's code: cost-charts.tsx loads this
// module when a chart first comes near the screen, so the page's first screen does not wait for it.
// The legend draws its keys with ColorSwatch, which the console's shared style list leaves out.
import '@mantine/core/styles/ColorSwatch.layer.css';
import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';

export default BarChart;
