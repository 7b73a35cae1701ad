// Freezing and unfreezing the mock's clock (contracts/control/clock.json): stable timestamps
// for a whole CI run, as serve --freeze-clock gives from the start.
import { presentClock, type ControlRoutes } from './routes.ts'

export function clockFreezeRoutes(routes: ControlRoutes): void {
  routes.handle('control.clock.freeze', ({ ctx }) => {
    ctx.clock.freeze()
    return presentClock(ctx, 0)
  })

  routes.handle('control.clock.unfreeze', ({ ctx }) => {
    ctx.clock.unfreeze()
    return presentClock(ctx, 0)
  })
}
