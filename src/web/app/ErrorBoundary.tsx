import { Component, type ReactNode } from 'react';
import { ErrorBox } from '../components/ui';

/** A page that throws while rendering shows the error instead of a blank screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error) return <ErrorBox error={this.state.error} retry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
